"""Game records: SGF in and out of keima games (built on sgfmill).

``load_sgf(source)`` returns a ``keima.Game`` replayed through the referee; ``load_record(source)`` returns it
with the record's tree and details (an ``SgfRecord``); ``dump_sgf(game)`` writes a game, ``dump_sgf(record)``
writes a record's game back over its tree; ``SgfError`` reports what is wrong with a record and where.
See ``keima.record.sgf``.
"""

from keima.record.sgf import SgfError, SgfRecord, dump_sgf, load_record, load_sgf

__all__ = ["SgfError", "SgfRecord", "dump_sgf", "load_record", "load_sgf"]
