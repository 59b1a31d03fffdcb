"""Characters a reader or a model cannot see as letters, defined once for every check of text.

Invisible here means a control character other than tab and newline (Cc), a format character (Cf: zero-width
space, soft hyphen, bidi overrides), a private-use character (Co), or any of Unicode's Default_Ignorable_Code_Point
set (which adds the combining grapheme joiner U+034F, the variation selectors, the Hangul fillers and the reserved
ignorable blocks, none of them Cc/Cf/Co). The set is derived from the Unicode data of the ``regex`` package
(``\\p{Default_Ignorable_Code_Point}``) and Python's ``unicodedata``, never listed by hand.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata

from .errors import ConfigError

_CATEGORIES = ("Cc", "Cf", "Co")
_KEPT = "\t\n\r"  # line structure, not hidden text


def _invisible(cp: int, ignorable: frozenset[int]) -> bool:
    c = chr(cp)
    return c not in _KEPT and (cp in ignorable or unicodedata.category(c) in _CATEGORIES)


@functools.lru_cache(maxsize=None)
def invisible_ranges() -> tuple[tuple[int, int], ...]:
    """The code point ranges of invisible characters (surrogates aside: UTF-8 text cannot hold them), computed once."""
    import regex

    every = "".join(chr(cp) for cp in range(sys.maxunicode + 1) if not 0xD800 <= cp <= 0xDFFF)
    ignorable = frozenset(ord(c) for m in regex.finditer(r"\p{Default_Ignorable_Code_Point}+", every) for c in m.group())
    ranges, start = [], None
    for cp in range(sys.maxunicode + 2):
        bad = cp <= sys.maxunicode and not 0xD800 <= cp <= 0xDFFF and _invisible(cp, ignorable)
        if bad and start is None:
            start = cp
        elif not bad and start is not None:
            ranges.append((start, cp - 1))
            start = None
    return tuple(ranges)


@functools.lru_cache(maxsize=None)
def _pattern() -> re.Pattern:
    return re.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in invisible_ranges()) + "\\ud800-\\udfff]")


@functools.lru_cache(maxsize=None)
def invisible_re2() -> str:
    """The same class for pyarrow's RE2, which searches a whole column without making Python strings of it."""
    return "[" + "".join(f"\\x{{{a:x}}}-\\x{{{b:x}}}" for a, b in invisible_ranges()) + "]"


def invisible_char(text: str) -> str | None:
    """The first character of ``text`` a model cannot see as a letter, described (``U+200B ZERO WIDTH SPACE``);
    None if there is none."""
    found = _pattern().search(text)
    if found is None:
        return None
    c = found.group()
    return f"U+{ord(c):04X} {unicodedata.name(c, _UNNAMED.get(unicodedata.category(c), 'unassigned character'))}"


_UNNAMED = {"Cc": "control character", "Co": "private-use character"}


# Text from strangers ---------------------------------------------------------------------------------------------
# Anything a submitter typed (model names, revisions, submitter names) and anything read from a file someone else
# wrote is data, never markup: every HTML and Markdown view shows it through these three functions.

_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}
_INLINE = set("\\`*_[]|~#$")  # what starts inline markup anywhere: emphasis, code, links, tables, headings' ends, math
_LINKS = {"://": "&#58;//", "www.": "www&#46;", "@": "&#64;"}  # what GFM would turn into a link by itself


def as_html(text) -> str:
    """``text`` as HTML text or an attribute value: it renders as the same characters, never as an element."""
    return "".join(_HTML.get(c, c) for c in str(text))


def as_markdown(text) -> str:
    """``text`` as inline Markdown (a heading, a sentence, a table cell) that renders as the same characters in any
    CommonMark renderer, Gradio's included, which also passes HTML and renders $$ math: markup characters are HTML
    entities, inline markup (emphasis, code, links and images, table pipes, math) is backslash-escaped, a list or
    quote marker that would open the line is escaped, bare URLs and addresses are kept from becoming links, and line
    breaks are spaces."""
    text = str(text).replace("\r", " ").replace("\n", " ")
    out = "".join(_HTML[c] if c in "&<>" else "\\" + c if c in _INLINE else c for c in text)  # quotes open no markup
    for bare, kept in _LINKS.items():
        out = out.replace(bare, kept)
    return _line_start(out)


def _line_start(out: str) -> str:
    """Escape what would make the text a list item, a heading underline or a quote where it opens a line."""
    m = re.match(r"(\s*)(\d+)([.)])", out)
    if m:
        return m.group(1) + m.group(2) + "\\" + m.group(3) + out[m.end():]
    m = re.match(r"(\s*)([-+=])", out)
    if m:
        return m.group(1) + "\\" + m.group(2) + out[m.end():]
    return out


def as_code(text) -> str:
    """``text`` as a Markdown code span: fenced by more backticks than any run inside it, so nothing inside ends it (a
    code span shows its content literally, HTML included)."""
    text = str(text).replace("\r", " ").replace("\n", " ")
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or longest else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def folded(text: str) -> str:
    """``text`` as it is compared or counted (one submitter, one name): NFKC-normalised and case-folded, so "Bob",
    "bob" and "ｂｏｂ" are one."""
    return unicodedata.normalize("NFKC", str(text)).casefold().strip()


def typed_line(text: str | None, what: str, cap: int) -> str:
    """A one-line field a stranger typed (``what``: "the submitter", "--model"), stripped; one line of refusal where it
    is several lines, longer than ``cap`` characters or holds a character nobody would see."""
    text = (text or "").strip()
    if "\n" in text or "\r" in text:
        raise ConfigError(f"{what} is one line: join the lines")
    if len(text) > cap:
        raise ConfigError(f"{what} is {len(text):,} characters long; at most {cap:,} are taken")
    found = invisible_char(text)
    if found:
        raise ConfigError(f"{what} holds {found}, which a reader would not see: remove it")
    return text
