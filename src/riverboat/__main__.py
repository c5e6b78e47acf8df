"""``python -m riverboat``: the same command as ``riverboat``."""

from riverboat.cli import app

if __name__ == "__main__":
    app(prog_name="riverboat")
