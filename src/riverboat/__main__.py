"""``python -m riverboat``: the same command as ``riverboat``."""

from riverboat.cli import run

if __name__ == "__main__":
    run()
