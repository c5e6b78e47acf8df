"""The back office: operators and their log (:mod:`.actions`), players and their money
as an operator sees and changes them (:mod:`.accounts`), game recall (:mod:`.recall`)
and the tables' hold against theory (:mod:`.hold`); what crosses to a front end is in
:mod:`.views`. docs/operations.md shows it in use."""
