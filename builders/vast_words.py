"""Word sets of VAST (Wolfe & Caliskan 2022) and of the WEAT bias tests (Caliskan et al. 2017), as the authors' code uses them."""

WORD_SETS: dict[str, tuple[str, ...]] = {
    "pleasant": ("caress", "freedom", "health", "love", "peace", "cheer", "friend", "heaven", "loyal", "pleasure", "diamond", "gentle", "honest", "lucky", "rainbow", "diploma", "gift", "honor", "miracle", "sunrise", "family", "happy", "laughter", "paradise", "vacation",),
    "unpleasant": ("abuse", "crash", "filth", "murder", "sickness", "accident", "death", "grief", "poison", "stink", "assault", "disaster", "hatred", "pollute", "tragedy", "divorce", "jail", "poverty", "ugly", "cancer", "kill", "rotten", "vomit", "agony", "prison",),
    "flower": ("aster", "clover", "hyacinth", "marigold", "poppy", "azalea", "crocus", "iris", "orchid", "rose", "bluebell", "daffodil", "lilac", "pansy", "tulip", "buttercup", "daisy", "lily", "peony", "violet", "carnation", "gladiola", "magnolia", "petunia", "zinnia",),
    "insect": ("ant", "caterpillar", "flea", "locust", "spider", "bedbug", "centipede", "fly", "maggot", "tarantula", "bee", "cockroach", "gnat", "mosquito", "termite", "beetle", "cricket", "hornet", "moth", "wasp", "blackfly", "dragonfly", "horsefly", "roach", "weevil",),
    "instrument": ("bagpipe", "cello", "guitar", "lute", "trombone", "banjo", "clarinet", "harmonica", "mandolin", "trumpet", "bassoon", "drum", "harp", "oboe", "tuba", "bell", "fiddle", "harpsichord", "piano", "viola", "bongo", "flute", "horn", "saxophone", "violin",),
    "weapon": ("arrow", "club", "gun", "missile", "spear", "axe", "dagger", "harpoon", "pistol", "sword", "blade", "dynamite", "hatchet", "rifle", "tank", "bomb", "firearm", "knife", "shotgun", "teargas", "cannon", "grenade", "mace", "slingshot", "whip",),
    "ea_name": ("Adam", "Harry", "Josh", "Roger", "Alan", "Frank", "Justin", "Ryan", "Andrew", "Jack", "Matthew", "Stephen", "Brad", "Greg", "Paul", "Jonathan", "Peter", "Amanda", "Courtney", "Heather", "Melanie", "Katie", "Betsy", "Kristin", "Nancy", "Stephanie", "Ellen", "Lauren", "Colleen", "Emily", "Megan", "Rachel",),
    "aa_name": ("Alonzo", "Jamel", "Theo", "Alphonse", "Jerome", "Leroy", "Torrance", "Darnell", "Lamar", "Lionel", "Tyree", "Deion", "Lamont", "Malik", "Terrence", "Tyrone", "Lavon", "Marcellus", "Wardell", "Nichelle", "Shereen", "Ebony", "Latisha", "Shaniqua", "Jasmine", "Tanisha", "Tia", "Lakisha", "Latoya", "Yolanda", "Malika", "Yvette",),
    "ea_name_2": ("Brad", "Brendan", "Geoffrey", "Greg", "Brett", "Matthew", "Neil", "Todd", "Allison", "Anne", "Carrie", "Emily", "Jill", "Laurie", "Meredith", "Sarah",),
    "aa_name_2": ("Darnell", "Hakim", "Jermaine", "Kareem", "Jamal", "Leroy", "Rasheed", "Tyrone", "Aisha", "Ebony", "Keisha", "Kenya", "Lakisha", "Latoya", "Tamika", "Tanisha",),
    "pleasant_2": ("joy", "love", "peace", "wonderful", "pleasure", "friend", "laughter", "happy",),
    "unpleasant_2": ("agony", "terrible", "horrible", "nasty", "evil", "war", "awful", "failure",),
    "career": ("executive", "management", "professional", "corporation", "salary", "office", "business", "career",),
    "domestic": ("home", "parents", "children", "family", "cousins", "marriage", "wedding", "relatives",),
    "male_name": ("John", "Paul", "Mike", "Kevin", "Steve", "Greg", "Jeff", "Bill",),
    "female_name": ("Amy", "Joan", "Lisa", "Sarah", "Diana", "Kate", "Ann", "Donna",),
    "male": ("male", "man", "boy", "brother", "he", "him", "his", "son",),
    "female": ("female", "woman", "girl", "sister", "she", "her", "hers", "daughter",),
    "mathematics": ("math", "algebra", "geometry", "calculus", "equations", "computation", "numbers", "addition",),
    "art": ("poetry", "art", "dance", "literature", "novel", "symphony", "drama", "sculpture",),
    "male_2": ("brother", "father", "uncle", "grandfather", "son", "he", "his", "him",),
    "female_2": ("sister", "mother", "aunt", "grandmother", "daughter", "she", "hers", "her",),
    "science": ("science", "technology", "physics", "chemistry", "Einstein", "NASA", "experiment", "astronomy",),
    "art_2": ("poetry", "art", "Shakespeare", "dance", "literature", "novel", "symphony", "drama",),
    "temporary": ("impermanent", "unstable", "variable", "fleeting", "short-term", "brief", "occasional",),
    "permanent": ("stable", "always", "constant", "persistent", "chronic", "prolonged", "forever",),
    "mental": ("sad", "hopeless", "gloomy", "tearful", "miserable", "depressed",),
    "physical": ("sick", "illness", "influenza", "disease", "virus", "cancer",),
    # Dominance / arousal poles of the authors' code: part of the PCA basis (VAST.py), never scored.
    "dominant": ("advantage", "authority", "bravery", "capable", "champion", "command", "confident", "control", "dominant", "fame", "glory", "honor", "king", "leader", "master", "mighty", "power", "respect", "rule", "strong", "success", "superior", "triumph", "victory", "win",),
    "submissive": ("afraid", "coward", "defeat", "disadvantage", "disappointment", "distressed", "embarrassed", "failure", "fearful", "feeble", "helpless", "humiliate", "impotence", "inferior", "insecure", "lonely", "meek", "nervous", "panic", "shame", "shy", "subordinate", "timid", "victim", "weak",),
    "arousal": ("alert", "anger", "aroused", "assault", "danger", "desire", "ecstasy", "erotic", "excitement", "fight", "flirt", "infatuation", "intruder", "laughter", "lust", "murder", "passion", "rage", "scream", "sex", "startled", "surprise", "terror", "thrill", "violent",),
    "indifference": ("bland", "bored", "comfort", "cozy", "dull", "gentle", "indifferent", "leisure", "peace", "placid", "plain", "polite", "protected", "quiet", "relaxed", "reserved", "safe", "secure", "sleep", "slow", "solemn", "soothing", "subdued", "tired", "weary",),
    "young": ("Tiffany", "Michelle", "Cindy", "Kristy", "Brad", "Eric", "Joey", "Billy",),
    "old": ("Ethel", "Bernice", "Gertrude", "Agnes", "Cecil", "Wilbert", "Mortimer", "Edgar",),
}

# The polar words of the seven-language appendix as published (wolferobert3/vast_aaai_2022,
# "Seven Languages Polar Attribute Words - Valence.txt"): comma-separated, repeats and stray spaces included.
# ``polar_words`` applies the rule that makes sets of them.
PUBLISHED_POLAR: dict[str, dict[str, str]] = {
    "pt": {
        "pleasant": 'carícia, liberdade, saúde, amor, diploma, paz, prazer, alegrar, amigo, céu, leal, diamante, gentil, honesto, sortudo, arco-íris, prenda, honra, milagre, amanhecer, família, feliz, riso, paraíso, férias',
        "unpleasant": 'maus-tratos, colisão, imundíce, assassinato, enfermidade, acidente, morte, tristeza, veneno, fedor, assalto, desastre, ódio, tragédia, poluir, divórcio, cadeia, pobreza, feio, cancro, matar, divórcio, cadeia, pobreza, feio, cancro, matar, podre, vómito, agonia, prisão',
    },
    "zh": {
        "pleasant": '抚摸, 自由, 健康, 爱, 和平, 欢呼, 朋友, 天堂, 忠诚, 乐趣, 钻石, 温和, 诚实, 幸运, 彩虹, 文凭',
        "unpleasant": '滥用, 崩溃, 污秽, 谋杀, 疾病, 事故, 死亡, 悲痛, 毒, 臭, 突击, 灾害, 仇恨, 污染, 悲剧, 离婚, 监狱, 贫穷, 丑陋, 癌症, 杀, 烂, 呕吐, 痛苦, 监狱',
    },
    "es": {
        "pleasant": 'caricia, libertad, salud, amor, diploma, paz, placer, ánimo, amigo, cielo, leal, diamante, delicado, honesto, afortunado, arco-iris, obsequio, honor, milagro, amanecer, familia, feliz',
        "unpleasant": 'maltrato, choque, inmundicia, asesinato, enfermedad, accidente, muerte, pena, ponzoña, hedor, asalto, desastre, odio, contaminar, tragedia, divorcio, cárcel, pobreza, feo, cáncer, matar, podrido, vómito, agonía, prisión',
    },
    "fr": {
        "pleasant": 'caresse, liberté, santé, amour, paix, joie, ami, ciel, loyal, plaisir, diamant, doux, honnête, chanceux, arc en ciel, diplôme, cadeau, honneur, miracle, lever du soleil, famille, heureux, rire, paradis, vacances',
        "unpleasant": 'abus, crash, saleté, meurtre, maladie, accident, mort, chagrin, poison, puanteur, agression, catastrophe, haine, polluer, tragédie, divorce, prison, pauvreté, laid, cancer, tuer, pourri, vomir, agonie, prison',
    },
    "pl": {
        "pleasant": 'pieszczota, swoboda, zdrowie, miłość, dyplom, pokój, przyjemność, dopingować, przyjaciel, niebiosa, wierny, diament, delikatny, uczciwy, fartowny, tęcza, podarunek, honor, cud, rodzina, szczęśliwy, śmiech, raj, wakacje, świt',
        "unpleasant": 'nadużycie, wypadek, brud, zabójstwo, choroba, awaria, śmierć, smutek, trucizna, smród, atak, katastrofa, nienawiść, zanieczyszczać, tragedia, rozwód, więzienie, bieda, brzydki, rak, zgniły, wymiociny, agonia, areszt, zło',
    },
    "tr": {
        "pleasant": 'okşamak, özgürlük, sağlık, sevgi, barış, neşe, arkadaş, sadık, keyif, pırlanta, kibar, dürüst, şanslı, gökkuşağı, hediye, onur, mucize, gündoğumu, aile, mutlu, kahkaha, cennet, tatil',
        "unpleasant": 'istismar, çarpmak, pislik, cinayet, hastalık, ölüm , üzüntü, zehir, kokuşmuş, saldırı, felaket, nefret, kirletmek, facia, boşanmak, hapishane, fakirlik, çirkin, kanser, öldürmek, çürümüş, kusmuk, ızdırap, sancı, cezaevi',
    },
    "en": {
        "pleasant": 'caress, freedom, health, love, peace, cheer, friend, heaven, loyal, pleasure, diamond, gentle, honest, lucky, rainbow, diploma, gift, honor, miracle, sunrise, family, happy, laughter, paradise, vacation',
        "unpleasant": 'abuse, crash, filth, murder, sickness, accident, death, grief, poison, stink, assault, disaster, hatred, pollute, tragedy, divorce, jail, poverty, ugly, cancer, kill, rotten, vomit, agony, prison',
    },
}

POLAR = ("pleasant", "unpleasant")  # the WEAT valence poles of SC-WEAT
VAD_SETS = ("dominant", "submissive", "arousal", "indifference")  # in the PCA basis only

# Caliskan et al. (2017) WEAT 1-10: target sets X, Y and attribute sets A, B.
WEAT_TESTS: dict[str, tuple[str, str, str, str]] = {
    "flowers/insects, pleasant/unpleasant": ("flower", "insect", "pleasant", "unpleasant"),
    "instruments/weapons, pleasant/unpleasant": ("instrument", "weapon", "pleasant", "unpleasant"),
    "EA/AA names, pleasant/unpleasant": ("ea_name", "aa_name", "pleasant", "unpleasant"),
    "EA/AA names (Bertrand), pleasant/unpleasant": ("ea_name_2", "aa_name_2", "pleasant", "unpleasant"),
    "EA/AA names (Bertrand), pleasant/unpleasant (Nosek)": ("ea_name_2", "aa_name_2", "pleasant_2", "unpleasant_2"),
    "male/female names, career/family": ("male_name", "female_name", "career", "domestic"),
    "math/arts, male/female": ("mathematics", "art", "male", "female"),
    "science/arts, male/female": ("science", "art_2", "male_2", "female_2"),
    "mental/physical disease, temporary/permanent": ("mental", "physical", "temporary", "permanent"),
    "young/old names, pleasant/unpleasant": ("young", "old", "pleasant_2", "unpleasant_2"),
}

LANGUAGES = {"en": "English", "pt": "Portuguese", "zh": "Chinese", "es": "Spanish", "fr": "French", "pl": "Polish", "tr": "Turkish"}


def polar_words(language: str = "en") -> dict[str, tuple[str, ...]]:
    """The pleasant and unpleasant polar words of ``language`` by the published lists and one rule: entries are
    split at commas and stripped (inner spaces collapsed), a repeat keeps its first position, multi-word entries
    ("arc en ciel") stay one entry, and the poles keep their published sizes (Chinese 16 vs 24)."""
    if language not in PUBLISHED_POLAR:
        raise KeyError(language)
    out = {}
    for pole in POLAR:
        words = (" ".join(w.split()) for w in PUBLISHED_POLAR[language][pole].split(","))
        out[pole] = tuple(dict.fromkeys(w for w in words if w))
    return out


CLASS_EDGES = (2.5, 4.0, 6.0, 7.5)  # valence classes 0..4 on the 1-9 scale: [1, 2.5), [2.5, 4), ... (the paper's text)


def valence_class(valence9: float, right_closed: bool = False) -> int:
    """The aligned template's class of a 1..9 valence: the paper's 1.0-2.49 / 2.50-3.99 / ... (an edge opens
    the upper class); ``right_closed``: the authors' code (<= 2.5 / <= 4.0 / <= 6.0 / <= 7.5)."""
    below = (lambda edge: valence9 <= edge) if right_closed else (lambda edge: valence9 < edge)
    return next((c for c, edge in enumerate(CLASS_EDGES) if below(edge)), len(CLASS_EDGES))
