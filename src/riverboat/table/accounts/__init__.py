"""Accounts and money: players and their names, the ledger every cent moves through,
top-ups (credits) and the audit that checks they all agree.

>>> from riverboat.table.accounts.ledger import player_account
>>> player_account(7)
'player:7'
"""

#: the local default player's name: no password (read by every command that opens the
#: service, so here rather than with the players' module and its password hashing)
LOCAL_PLAYER = "local"
