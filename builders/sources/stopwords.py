"""Closed-class English words: NLTK's English stopword list (nltk_data ``corpora/stopwords/english``,
179 words, ``NLTK_STOPWORDS``), written out because the corpus is not on an offline machine, plus the 26
single letters. The tendencies statistics use the full list too.

Its 26 entries with an apostrophe (``don't``) are left out (no keyword can contain one): 153 words.
Modals and prepositions it lacks are added as a second named constant.
"""

NLTK_STOPWORDS = frozenset("""
i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves he
him his himself she she's her hers herself it it's its itself they them their theirs themselves what
which who whom this that that'll these those am is are was were be been being have has had having do
does did doing a an the and but if or because as until while of at by for with about against between
into through during before after above below to from up down in out on off over under again further
then once here there when where why how all any both each few more most other some such no nor not
only own same so than too very s t can will just don don't should should've now d ll m o re ve y ain
aren aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't
ma mightn mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't
won won't wouldn wouldn't
""".split())
NLTK_ENGLISH_STOPWORDS = frozenset(w for w in NLTK_STOPWORDS if "'" not in w)
SINGLE_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")
# Modals, prepositions and subordinating conjunctions (Penn Treebank MD / IN words) that NLTK's list lacks;
# WordNet has noun senses for some of them (may: hawthorn), which are no keyword or target a reader expects.
MODALS_AND_PREPOSITIONS = frozenset(
    """may might must shall would could ought despite toward towards upon within without among amongst across
    behind beyond along alongside around near beside besides beneath underneath throughout till unless whether
    although though whereas whilst since via per amid amidst onto unto versus except""".split()
)
CLOSED_CLASS = NLTK_ENGLISH_STOPWORDS | SINGLE_LETTERS | MODALS_AND_PREPOSITIONS
