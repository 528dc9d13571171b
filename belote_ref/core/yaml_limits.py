"""The bounds of reading a YAML file that may come from anyone (see :mod:`~belote_ref.core.yamlsource`)."""

__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "MAX_INTEGER_DIGITS", "MAX_NODES"]

#: The largest YAML file read, in bytes (and in characters, for text that is not a regular file).
MAX_FILE_BYTES = 2 * 1024 * 1024
#: The most values (scalars, lists, mappings, keys) one document may build, aliases expanded.
MAX_NODES = 100_000
#: The deepest nesting of lists and mappings.
MAX_DEPTH = 64
#: The longest integer, in digits: far beyond any rule value, far below Python's 4300-digit limit.
MAX_INTEGER_DIGITS = 30
