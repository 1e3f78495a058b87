"""The extended rules' Chinese names in English, for a player who does not read Chinese (``--english``)."""

from __future__ import annotations

import re

from ..core_words import extended_english_names

_CJK_NAME = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff]+(?:\([0-9≤≥-]+\))?")
_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")
OTHER_WORDS: dict[str, str] = {
    "扩展规则": "Extended rules", "数字牌": "number cards", "中文": "Chinese", "决斗": "Duels", "转移": "Transfer",
}
"""Words of the table's own (not cards' names) that it writes in Chinese, in English."""


def english_names(text: str) -> str:
    """The extended rules' Chinese names in English only: "red 夹子 Clip" -> "red Clip",
    "转移(0-4) Transfer" -> "Transfer ≤4", "手榴弹 chain" -> "Grenade chain", "天选之子" -> "The Chosen One".

    The table names a card in Chinese, often with its English name after it; a player who does not
    read Chinese asks for the English alone.
    """
    names = extended_english_names() | OTHER_WORDS
    out: list[str] = []
    pos = 0
    for m in _CJK_NAME.finditer(text):
        en = names.get(m.group(0))
        if en is None:
            continue
        out.append(text[pos:m.start()])
        after = text[m.end():]
        rest = after.lstrip()
        gap = len(after) - len(rest)
        pos = m.end()
        if gap and rest.lower().startswith(en.lower()):
            pos += gap  # its English name follows: that alone stays
            continue
        word = _WORD.match(rest) if gap else None
        if word and word.group(0).lower() in (en.split()[0].lower(), en.split()[-1].lower()):
            pos += gap + word.end()  # "转移(0-4) Transfer", "紧箍咒 curse": the whole English name says both
        out.append(en)
    out.append(text[pos:])
    return "".join(out)
