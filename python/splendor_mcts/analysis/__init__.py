"""The tools for people around the search: hint, review, the analysis protocol, and running a search with a tool's limits."""
