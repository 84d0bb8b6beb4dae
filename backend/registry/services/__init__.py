"""Writes to the registry. Each service is one transaction and asks the law core first."""
