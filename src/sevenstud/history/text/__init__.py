"""The card rooms' text hand histories of stud, stud hi/lo and razz, as dialects of one reader
and one writer.

* :mod:`.model`: the lines of a hand as every room writes them (seats, antes, deals, bets, shows,
  collects), the errors, amounts and cards as written;
* :mod:`.reader`: the one reader (the file cut into hands, one bad hand reported and the next
  read) and the one line parser of a hand, in a room's :class:`~.reader.ReadingDialect`;
* :mod:`.writer`: the one writer of a hand of ours, from one viewer's point of view, in a room's
  :class:`~.writer.WritingDialect`, from one :class:`~.writer.TextRecord`;
* :mod:`.replay`: every room's hand played through our engine, line by line;
* the dialects, each a record of the room's words (its header, street marks, verbs, game titles
  both ways, amounts) and its own lines: :mod:`.pokerstars`, :mod:`.fulltilt`, :mod:`.acr`
  (with :mod:`.acr_model` and :mod:`.acr_replay`, the room's pots, rake and jackpot fee).
"""
