"""Events: what clients are told. Announcements on commit through the outbox, and the snapshots they re-sync from."""
