"""The processes: table workers, the bots' and the analyses' pools, takeovers, hosts sharing a store."""
