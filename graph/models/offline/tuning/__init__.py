"""Every threshold, weight, word list and pattern of the offline search policy, each with a reason.

One module per concern: `directives` (retrieved sentences that address the reader or give
orders), `search` (the search budget and the rules' thresholds), `sentences` (the answer
sentence), `short_answers` (the kind asked for; dates, numbers, places, groups), `yes_no` (the
yes/no reading), `spans` (the span of the kind asked), `reading` (words, sentences, names,
markup), `arithmetic` and `declining`. Each constant is followed by its reason, a docstring;
importers name the module that owns it (this package re-exports nothing).

Nothing else in graph/models/offline defines one (tests/test_offline_layout.py checks that on
the syntax tree). Two values the policy uses are owned lower down, because the finish node
uses them too: the confidence bars (`graph.models.confidence`) and the function words
(`graph.models.support`). Chosen on the
tune sets only (the jinja, click and attrs documentation sets, the SQuAD sample,
hotpotqa-dev-tune, notes, seed_runs, codes_tune, service_tune and the made-up folders of
tests/); hotpotqa-dev-test and hotpotqa-hard are held out for reporting. What each rule adds on
every tune set is `benchmarks/rule_ablation.py`'s table.
"""
