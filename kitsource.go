// Package arena is the module's root. It holds, embedded, what a starter
// kit (bots/starters, written by arena new) carries besides its bot, so
// that a kit builds and reads where it is written, with no clone of this
// repository and no network: the Go SDK's source and the docs.
package arena

import "embed"

// GoSDK is the source of the Go SDK's packages and of every package of
// this module they import, with the module's go.mod (for its go
// version). A Go kit gets a copy of it and builds against the copy
// (a replace directive), offline: nothing here may import beyond the
// standard library and these packages, which TestGoSDKIsItsOwnClosure
// holds to. The packages' tests come along and are not copied.
//
//go:embed go.mod
//go:embed sdk/*.go sdk/banqi/*.go sdk/boon/*.go sdk/uno/*.go sdk/sdktest/*.go
//go:embed protocol/*.go internal/rawio/*.go arena/clock/*.go arena/seed/*.go arena/judge/*.go
//go:embed engine/*.go engine/all/*.go engine/banqi/*.go engine/boon/*.go engine/uno/*.go engine/deal/*.go engine/jsonw/*.go engine/schema/*.go
var GoSDK embed.FS

// Docs are the documents a kit's README may link to: a kit carries a
// copy of each one it links (starters.Write).
//
//go:embed docs/protocol.md docs/sdk-*.md docs/games/*.md
var Docs embed.FS
