"""``python -m riverboat``: the same command as ``riverboat``."""

from riverboat.cli import run_and_exit

if __name__ == "__main__":
    run_and_exit()
