"""Stubs generated from proto/cardtui/v1 by `make proto`; do not edit."""
