"""Request understanding without a model: what a request says, in any wording, in Italian or English.

``words`` takes out what is named exactly (addresses, paths, file names) and
lemmatises the rest (``simplemma``); ``reading`` finds the request's parts,
their actions or prohibitions and its roles (website, folder, files,
spreadsheet, fields, the phrase for what to collect); ``frames`` matches them
to the request frames executors declare in their manifests and returns a
plan, a question naming what is missing, or why there is none. The words
live in ``lexicon/requests.json`` and, for the objects people collect, in
``apps/records/lexicon/objects.json``.
"""
