// svgo settings for the court faces that build_sprite.py reads (see README.md)
export default {
  multipass: true,
  floatPrecision: 0,
  plugins: [
    {
      name: "preset-default",
      params: {
        overrides: {
          cleanupIds: false,
          removeViewBox: false,
          removeUselessDefs: false,
          removeHiddenElems: false,
          convertShapeToPath: false,
          inlineStyles: false,
          mergePaths: false,
          collapseGroups: false,
          // svgo 3.3's smooth-curve shorthand fails on the King of spades
          convertPathData: { curveSmoothShorthands: false },
        },
      },
    },
  ],
};
