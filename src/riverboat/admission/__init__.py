"""Admission control, in one home: who may come in, how fast, and how much slow work
runs at once.

- :mod:`~riverboat.admission.logins`: failed log-ins throttled per (account,
  address) and per address, counted in the state store every process shares;
- :mod:`~riverboat.admission.budgets`: :class:`~riverboat.admission.budgets.Budget`
  (slow work at once, in this process), :class:`~riverboat.admission.budgets.Rate`
  (work a second per key), :class:`~riverboat.admission.budgets.Tarpit` (refusals
  answered late), and :class:`~riverboat.admission.budgets.Busy`, their refusal;
- :mod:`~riverboat.admission.gates`: the web's rate limit on every request and
  handshake, the addresses waiting out a throttle, and the budgets of slow reads.
"""
