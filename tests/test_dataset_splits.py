"""The held-out HotpotQA split: `hotpotqa-dev-tune` (questions 1-250) and `hotpotqa-dev-test`
(251-500), deterministic, disjoint, together the whole of `hotpotqa-dev`, over its corpus."""

from __future__ import annotations

from evals.datasets import load_dataset


def test_tune_and_test_split_dev_in_file_order_over_the_same_corpus() -> None:
    dev = load_dataset("hotpotqa-dev")
    tune, test = load_dataset("hotpotqa-dev-tune"), load_dataset("hotpotqa-dev-test")
    assert (tune.name, test.name) == ("hotpotqa-dev-tune", "hotpotqa-dev-test")
    assert len(tune) == 250 and len(test) == 250
    assert tune.questions == dev.questions[:250] and test.questions == dev.questions[250:]
    assert not {q.id for q in tune.questions} & {q.id for q in test.questions}
    assert tune.corpus is dev.corpus and test.corpus is dev.corpus
    assert "in-sample" in tune.description and "held out" in test.description
    assert load_dataset("hotpotqa-dev-test") is test  # cached: the same split every time
