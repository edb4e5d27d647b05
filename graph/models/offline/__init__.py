"""The offline chat model: a deterministic ReAct policy, a visible table of rules over search tools.

`model.PolicyModel` is the LangChain chat model (``--model policy``); `rules.RULES` is its rule
table, in order, each rule a small function of a `turn.Turn` whose Thought shows the numbers
that decided. Each text skill has its own module (`reading`, `directives`, `arithmetic`,
`answering`, `short_answers`), `sources` chooses among search tools, and the `tuning`
package holds every threshold, word list and pattern, one module per concern. Tools with
structured arguments go to `graph.models.structured`; the support measure is
`graph.models.support`, the confidence measure and its bars `graph.models.confidence`.
"""
