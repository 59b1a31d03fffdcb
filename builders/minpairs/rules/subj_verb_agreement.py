from ..edits import Edit, Rule, replace
from ..morph import swap_person_number, swap_verb_number

# "sie"/"Sie" takes both numbers (she / they / formal you), "ihr" is also her: a swapped verb may still be grammatical.
_AMBIGUOUS_SUBJECTS = {"sie", "ihr"}
# First and second person only beside one of these subject pronouns, whose person and number are certain.
_PERSONAL_SUBJECTS = {"ich": ("1", "Sing"), "wir": ("1", "Plur"), "du": ("2", "Sing")}


class SubjVerbAgreement(Rule):
    """Swap the number of a clause's finite verb (geht <-> gehen; ich gehe -> ich gehen, wir gingen -> wir ging,
    du gehst -> du geht), so it no longer agrees with its subject; third person, or first/second person beside
    ich/wir/du."""

    name = "subj_verb_agreement"
    description = "the number of the finite verb swapped"

    def candidates(self, analysis) -> list[Edit]:
        words, out, seen_finite, start, modal = analysis.words, [], False, 0, False
        for i, w in enumerate(words):
            if w.upos == "PUNCT" or w.upos == "SCONJ":
                start, modal = i + 1, False  # a new clause
            if w.upos == "PUNCT" or w.upos in ("CCONJ", "SCONJ"):
                seen_finite = False  # coordinated clauses ("und sie ging") have a finite verb of their own
            finite = w.upos in ("VERB", "AUX") and w.values("VerbForm") == {"Fin"}
            first, seen_finite = finite and not seen_finite, seen_finite or finite
            # Only a clause's first finite verb: a second one is usually a mis-tagged infinitive (denken können), as
            # is one in the infinitive's form after a modal, across coordinated nouns ("kann zu A und B führen").
            infinitive_after_modal = modal and w.text.lower() == w.lemma.lower()
            modal = modal or (finite and w.xpos == "VMFIN")
            if not first or infinitive_after_modal or w.values("Mood") & {"Imp"}:
                continue
            # an ambiguous pronoun anywhere in the clause before the verb ("dass sie ... benötigt werde") or just after
            clause = [x.text.lower() for x in words[start: i + 3] if x.upos != "PUNCT"]
            near = clause[-5:]
            if set(clause) & _AMBIGUOUS_SUBJECTS:
                continue
            person = w.values("Person")
            if person == {"3"} and not set(near) & set(_PERSONAL_SUBJECTS):
                swapped = swap_verb_number(w.text, w.lemma)
            elif person in ({"1"}, {"2"}):
                subjects = {_PERSONAL_SUBJECTS[x] for x in near if x in _PERSONAL_SUBJECTS}
                if len(subjects) != 1 or next(iter(subjects))[0] not in person:
                    continue
                swapped = swap_person_number(w.text, w.lemma, *subjects.pop())
            else:
                continue
            if swapped and swapped.lower() != w.text.lower():
                out.append(replace(w, swapped))
        return out
