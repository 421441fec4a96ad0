"""Game records: SGF in and out of keima games (built on sgfmill).

``load_sgf(source)`` (SGF text, bytes, or a ``pathlib.Path``; at most ``DEFAULT_MAX_BYTES`` unless
``max_bytes=`` says otherwise) returns a ``keima.Game`` replayed through the referee; ``dump_sgf(game)`` writes
one; ``SgfError`` reports what is wrong with a record and where. See ``keima.record.sgf``.
"""

from keima.record.sgf import (
    DEFAULT_MAX_BYTES,
    SgfError,
    SgfRecord,
    dump_sgf,
    load_record,
    load_sgf,
    record_of,
)

__all__ = ["DEFAULT_MAX_BYTES", "SgfError", "SgfRecord", "dump_sgf", "load_record", "load_sgf", "record_of"]
