"""Test settings shared by every test module."""

from hypothesis import settings

# The first call of an evaluator builds its tables and may load compiled code, which
# takes longer than Hypothesis' default 200 ms deadline; speed is measured in bench/.
settings.register_profile("riverboat", deadline=None, print_blob=True)
settings.load_profile("riverboat")
