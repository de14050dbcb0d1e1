package shadow

// objectStore keeps the contents of the files the tools touched and the
// manifest of every checkpoint. Contents are named by their git blob id
// (blobID), whichever store holds them, so a manifest reads the same in
// both; gitStore keeps them as git objects, sealedStore as sealed files
// (see doc.go).
type objectStore interface {
	// create makes the store's folders when they do not exist yet.
	create() error
	// hashFiles stores the contents of the files at the absolute paths
	// and returns their blob ids in order.
	hashFiles(paths []string) ([]string, error)
	// hashData stores data and returns its blob id.
	hashData(data []byte) (string, error)
	// readBlobs returns the contents of the blobs ids, by id; ids the
	// store does not hold are left out.
	readBlobs(ids []string) (map[string][]byte, error)
	// commit stores manifest (the encoding of st) as a checkpoint after
	// parent ("" for the first) and returns its id, 40 hex digits.
	commit(st *state, manifest []byte, parent string) (string, error)
	// manifest returns the manifest of checkpoint id, false when the store
	// holds no such checkpoint.
	manifest(id string) ([]byte, bool, error)
}
