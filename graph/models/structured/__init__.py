"""The structured controller: tools whose arguments are filled from their schemas.

`controller.StructuredController` decides the calls (field-service and schema-filling tools,
bound without a search tool); `schemas` reads the tools' argument schemas, `findings` the
records they return, `summaries` the answer's sentences, `tuning` every limit and word list.
"""
