"""Counterfactual regret minimisation for stud: the learned bot's training and its checks.

* :mod:`~sevenstud.cfr.game`: the extensive-form game interface;
* :mod:`~sevenstud.cfr.solvers`: exact CFR and CFR+, external-sampling MCCFR;
* :mod:`~sevenstud.cfr.best_response`: exact expected returns, best response, exploitability;
* the games where the truth is known: :mod:`~sevenstud.cfr.kuhn` (value -1/18),
  :mod:`~sevenstud.cfr.leduc` (about -0.0856), and :mod:`~sevenstud.cfr.ministud`, a reduced
  stud game (a six-card deck, two streets) small enough for an exact best response;
* :mod:`~sevenstud.cfr.abstraction` and :mod:`~sevenstud.cfr.stud_game`: real stud abstracted
  (street, hi and lo strength buckets with the live cards counted, the betting so far), what
  ``sevenstud train`` (:mod:`~sevenstud.cfr.train`) trains the learned bot on;
* :mod:`~sevenstud.cfr.population` and :mod:`~sevenstud.cfr.bot_members`: training against a
  population (past versions, a maniac, a calling station, the rule, tight and equity bots).

Standard library only, so the learned bot plays in the terminal without extras.
"""
