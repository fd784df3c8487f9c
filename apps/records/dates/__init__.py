"""Dates and periods as documents state them, keeping the precision of their source.

``grammar`` holds the words and the patterns of date expressions; ``reading``
reads them (``parse_date``, ``find_dates``, ``DateValue``, ``UnreadableDate``);
``periods`` compares dates with a period and filters rows by it. Callers
import the module that defines a name.
"""
