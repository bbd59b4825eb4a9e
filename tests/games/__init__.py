"""Games made for the tests, each in a folder of its own that plugs into the registries as a game from outside the
package does (CONTRIBUTING, "Adding a game"): nothing of them ships."""
