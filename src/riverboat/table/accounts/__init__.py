"""Accounts and money: players and their names, the ledger every cent moves through,
top-ups (credits) and the audit that checks they all agree.

>>> from riverboat.table.accounts.ledger import player_account
>>> player_account(7)
'player:7'
"""
