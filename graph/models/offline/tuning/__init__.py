"""Every threshold, weight, word list and pattern of the offline search policy, each with a reason.

One module per concern: `search` (the rules' thresholds), `sentences` (the answer sentence),
`reading` (words, sentences, names, markup), `directives` (sentences giving orders),
`short_answers` (the kind asked for), `numbers` and `names` (the spans of each kind), `yes_no`,
`arithmetic` and `declining`. Each constant is followed by its reason, a docstring; importers
name the module owning it (this package re-exports nothing), and nothing else in
graph/models/offline defines one (tests/test_offline_layout.py checks both on the syntax tree).
The confidence bars (`graph.models.confidence`) and the function words (`graph.models.support`)
are owned lower down: the finish node uses them too. Chosen on the tune sets only (the jinja,
click and attrs documentation sets, the SQuAD sample, hotpotqa-dev-tune, notes, seed_runs,
codes_tune, service_tune and the made-up folders of tests/); hotpotqa-dev-test and
hotpotqa-hard are held out. What each rule adds on each tune set: `benchmarks/rule_ablation.py`.
"""
