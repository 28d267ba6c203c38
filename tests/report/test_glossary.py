"""The glossary (docs/glossary/glossary.yaml) in use: the Chinese memo of the default
contains none of the rejected terms and the preferred ones where the memo speaks of
them; a memo that would contain a rejected term is refused."""

from __future__ import annotations

import pytest

from costmodel.report.memo import glossary
from costmodel.report.memo.render import write_memos


def test_glossary_loads_the_terms_the_issue_rejected():
    rejected = {r for t in glossary.terms() for r in t.rejected}
    for term in ("亏损概率", "最接近回本", "自我造血", "买不到算力", "增值部分缴税",
                 "偿债覆盖率", "需要什么条件成立", "什么在左右净现值", "损失初始投资"):  # fmt: skip
        assert term in rejected, term
    assert all(t.zh and t.zh not in t.rejected for t in glossary.terms())


def test_zh_memo_has_no_rejected_term_and_uses_the_preferred_ones(memos):
    zh = memos["zh"]
    assert glossary.rejected_in(zh) == []
    for term in ("单位投资净现值", "盈亏平衡需要的条件", "影响净现值的主要因素", "每有效卡时成本"):
        assert term in zh, term
    assert "LoRA 微调LoRA 微调" not in zh


def test_a_rejected_term_is_refused(model, tmp_path, monkeypatch):
    """A Chinese memo that contains a rejected term is not written."""
    from costmodel.report.memo import text

    monkeypatch.setitem(text.TEXT["zh"], "h_summary", "亏损概率")
    with pytest.raises(ValueError, match="亏损概率.*净现值为负的概率"):
        write_memos(model, {"zh": tmp_path / "memo.zh.html"})
    assert not (tmp_path / "memo.zh.html").exists()


def rejected_in_files(files) -> list[tuple[str, str]]:
    """``(file name, rejected term)`` for each rejected term found in ``files``."""
    return [
        (f.name, term)
        for f in files
        if f.is_file()
        for term, _ in glossary.rejected_in(f.read_text(encoding="utf-8"))
    ]


def test_no_text_of_the_package_holds_a_rejected_term():
    """Every Chinese sentence the memo, the workbook or the command line can print,
    in whatever branch the numbers choose, is free of rejected terms: the package's
    source and templates are searched as text (a memo only shows the branches its
    model reaches; the financing note of a loan once said '偿债覆盖率', and building
    the bank-loan scenario failed)."""
    from costmodel.inputs.resources import templates_dir
    from tests.paths import ROOT

    files = [*(ROOT / "costmodel").rglob("*.py"), *templates_dir().rglob("*")]
    assert len(files) > 100
    assert rejected_in_files(files) == []


def test_the_scan_finds_a_rejected_term_in_a_text_table(tmp_path):
    """The scan reads source text: a text table with a rejected term is found."""
    table = tmp_path / "section.py"
    table.write_text(
        'TEXT = {"zh": {"note": "测算期内没有还本付息，因此没有偿债覆盖率。"}}\n', "utf-8"
    )
    assert rejected_in_files([table, tmp_path / "missing.py"]) == [("section.py", "偿债覆盖率")]
