"""riverboat in the terminal: ``riverboat play GAME``.

:class:`~riverboat.terminal.app.TableApp` is the Textual table (keyboard first, on
the same database as the web table); :mod:`riverboat.terminal.plain` plays rounds
with a strategy and prints one line per round, for scripts; :mod:`riverboat.terminal.cards`
draws cards in text.
"""
