package corpus

import (
	"context"

	"github.com/docs-mcp/docs-mcp/mcp-server/gitdocs"
	"github.com/docs-mcp/docs-mcp/mcp-server/internal/docs"
)

// blobIDsKey is the snapshot's blob ids (DeriveBlobIDs).
var blobIDsKey = docs.NewKey[*blobIDs]("corpus.blobIDs")

// blobIDs are the git blob ids of a snapshot's docs, as git hashes the
// files they were read from: what provenance compares with a commit's to
// tell a doc edited since. A doc whose file git could not have hashed from
// its text (gitdocs.FileBlobID) has the zero id, which no blob has. They
// are in the snapshot's order of docs, 20 bytes a doc.
type blobIDs struct {
	done chan struct{} // closed once ids is complete
	snap *docs.Snapshot
	ids  []gitdocs.BlobID
}

// DeriveBlobIDs attaches to next the blob id of each of its docs, made
// once per snapshot so that no request hashes a doc: a doc that next
// shares with prev keeps prev's id, so a change hashes only the docs it
// changed, before next is served. The first snapshot's (every doc: 3.8 s
// for cpp-docs' 9,746 docs, 45 MB, on two loaded cores) are hashed beside
// the start-up's other work, and BlobID says when they are not there yet.
func DeriveBlobIDs(prev, next *docs.Snapshot) {
	made := false
	b := docs.Attach(next, blobIDsKey, func() *blobIDs {
		made = true
		return &blobIDs{done: make(chan struct{}), snap: next, ids: make([]gitdocs.BlobID, len(next.Docs()))}
	})
	if !made {
		return // attached already (a corpus with Config.Git derives them itself; a Derive list may name it too)
	}
	var old *blobIDs
	if prev != nil {
		old, _ = docs.Attached(prev, blobIDsKey)
	}
	if old == nil {
		go b.hash(nil)
		return
	}
	<-old.done // a change follows the snapshot before it; prev's are long made
	b.hash(old)
}

// hash fills b with the id of each doc of its snapshot, taking old's
// where a doc is the same.
func (b *blobIDs) hash(old *blobIDs) {
	defer close(b.done)
	var buf []byte
	for i, d := range b.snap.Docs() {
		if id, ok := old.get(d); ok {
			b.ids[i] = id
			continue
		}
		buf = d.AppendText(buf[:0])
		b.ids[i], _ = gitdocs.FileBlobID(buf, d.Size)
	}
}

// get is d's id in b, when d is a doc of b's snapshot (a nil b has none).
func (b *blobIDs) get(d *docs.Doc) (gitdocs.BlobID, bool) {
	if b == nil {
		return gitdocs.BlobID{}, false
	}
	all := b.snap.Docs()
	if i := b.snap.From(d.Path); i < len(all) && all[i] == d {
		return b.ids[i], true
	}
	return gitdocs.BlobID{}, false
}

// BlobID is the blob id of d, a doc of snap, as DeriveBlobIDs attached it:
// the zero id when git could not have hashed its file from its text; ok
// false when snap has no ids, or not yet (the first snapshot's are hashed
// while the server starts).
func (c *Corpus) BlobID(snap *docs.Snapshot, d *docs.Doc) (id gitdocs.BlobID, ok bool) {
	return BlobID(snap, d)
}

// BlobID is Corpus.BlobID, of any snapshot.
func BlobID(snap *docs.Snapshot, d *docs.Doc) (id gitdocs.BlobID, ok bool) {
	if snap == nil {
		return gitdocs.BlobID{}, false
	}
	b, found := docs.Attached(snap, blobIDsKey)
	if !found {
		return gitdocs.BlobID{}, false
	}
	select {
	case <-b.done:
		return b.get(d)
	default:
		return gitdocs.BlobID{}, false
	}
}

// AwaitBlobIDs waits until snap's blob ids are made (DeriveBlobIDs), or
// ctx ends; a snapshot without them returns at once.
func AwaitBlobIDs(ctx context.Context, snap *docs.Snapshot) error {
	b, found := docs.Attached(snap, blobIDsKey)
	if !found {
		return nil
	}
	select {
	case <-b.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// BlobIDsMade is closed once snap's blob ids are made (DeriveBlobIDs); ok
// is true when they are, or snap has none to wait for (nil, or a corpus
// outside a repository).
func (c *Corpus) BlobIDsMade(snap *docs.Snapshot) (made <-chan struct{}, ok bool) {
	if snap == nil {
		return nil, true
	}
	b, found := docs.Attached(snap, blobIDsKey)
	if !found {
		return nil, true
	}
	select {
	case <-b.done:
		return b.done, true
	default:
		return b.done, false
	}
}
