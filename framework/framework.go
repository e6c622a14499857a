// Package framework holds the modkit hook registry (mod_hooks.json) and its
// JSON Schema (mod_hooks.schema.json) as embedded files, so that the Go code,
// the validator and the documentation all read one source.
//
// Load and check the registry with package registry; register and fire hooks
// with package modkit.
package framework

import (
	_ "embed"
	"slices"
)

//go:embed mod_hooks.json
var registryJSON []byte

//go:embed mod_hooks.schema.json
var schemaJSON []byte

// RegistryJSON returns a copy of mod_hooks.json exactly as it is in the
// source tree.
func RegistryJSON() []byte { return slices.Clone(registryJSON) }

// SchemaJSON returns a copy of mod_hooks.schema.json, the JSON Schema
// (draft 2020-12) that mod_hooks.json must satisfy.
func SchemaJSON() []byte { return slices.Clone(schemaJSON) }
