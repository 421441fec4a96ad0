"""Game records: SGF in and out of keima games (built on sgfmill).

``load_sgf(source)`` (SGF text as a ``str``, the file's bytes, or a ``pathlib.Path``; at most ``DEFAULT_MAX_BYTES``
unless ``max_bytes=`` says otherwise) returns a ``keima.Game`` replayed through the referee; ``load_record(source)``
returns it with the record's tree and details (an ``SgfRecord``); ``dump_sgf(game)`` writes a game,
``dump_sgf(record)`` writes a record's game back over its tree; ``SgfError`` reports what is wrong with a record
and where. See ``keima.record.sgf``. ``read_tree``/``dump_tree`` read and write a whole tree (variations,
marks, comments) as plain ``TreeNode`` data (``keima.record.tree``).
"""

from keima.record.sgf import DEFAULT_MAX_BYTES, SgfError, SgfRecord, dump_sgf, load_record, load_sgf
from keima.record.tree import MARK_PROPERTIES, TreeNode, dump_tree, read_tree

__all__ = [
    "DEFAULT_MAX_BYTES", "MARK_PROPERTIES", "SgfError", "SgfRecord", "TreeNode", "dump_sgf", "dump_tree",
    "load_record", "load_sgf", "read_tree",
]
