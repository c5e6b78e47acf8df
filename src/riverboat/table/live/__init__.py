"""The live shared tables: several players at one table, in this process or across
several.

``seats``: who sits at a table and sending them its messages. ``clock``: the table's
timer. ``across/``: what lets several server processes serve one table.
"""
