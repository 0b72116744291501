#!/bin/sh
# Runs every benchmark program; each prints its own ratio lines.
for b in "$@"; do
	"$b" || exit 1
done
