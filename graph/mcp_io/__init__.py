"""The Model Context Protocol both ways: serve the project's tools, use any server's tools.

``server`` builds the FastMCP server (``agent mcp serve``); ``spec`` parses ``--mcp`` specs;
``client`` owns the client sessions on a background event loop (``errors``: its one-line
failures); ``tools`` turns a server's tools into LangChain tools for the agent (through
langchain-mcp-adapters); ``flow`` gives the field-service flow its three tools over MCP.
Importing this package builds nothing.
"""
