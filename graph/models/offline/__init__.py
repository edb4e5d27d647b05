"""The offline chat model: a deterministic ReAct policy that reads the transcript and calls tools.

`model.PolicyModel` is the LangChain chat model (``--model policy``); `controller.Controller`
holds its decision rules over search tools, `structured.StructuredController` its rules over
tools with structured arguments. `actions` holds what both decide and observe; each text
skill has its own module (`reading`, `directives`, `arithmetic`, `bridges`, `answering`,
`hops`, `short_answers`, `schemas`, `findings`, `summaries`), `sources` chooses among search
tools, and `tuning` holds every weight, threshold and word list.
"""
