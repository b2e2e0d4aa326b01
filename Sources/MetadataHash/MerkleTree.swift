import SigningKeys

/// RFC-0078's binary merkle tree over leaf hashes (docs/reference/metadata-hash.md §4).
///
/// The RFC builds it with a queue: while more than one hash is left, take two from the back
/// (right, then left) and push BLAKE3(left ‖ right) to the front. That produces the complete
/// binary tree stored as an array in heap order: node `i` has children `2i + 1` and `2i + 2`,
/// the `n` leaves fill positions `n − 1 … 2n − 2` in order, and node `i = n − 2 … 0` is
/// BLAKE3(node(2i + 1) ‖ node(2i + 2)). ``nodes`` is that array; ``root`` is node 0, or 32 zero
/// bytes for no leaves. (The queue form and the array form are compared in `MerkleTreeTests`.)
package struct MerkleTree: Hashable, Sendable {
    /// Every node hash in heap order (`2n − 1` of them; empty for no leaves).
    package let nodes: [[UInt8]]
    /// The number of leaves.
    package let leafCount: Int

    /// Builds the tree over `leafHashes` (32 bytes each), in the given order.
    package init(leafHashes: [[UInt8]]) {
        leafCount = leafHashes.count
        guard leafCount > 0 else {
            nodes = []
            return
        }
        var nodes = [[UInt8]](repeating: [], count: leafCount - 1)
        nodes += leafHashes
        for i in stride(from: leafCount - 2, through: 0, by: -1) {
            nodes[i] = Blake3.hash(concatenating: nodes[2 * i + 1], nodes[2 * i + 2])
        }
        self.nodes = nodes
    }

    /// The root: node 0, or 32 zero bytes when there are no leaves.
    package var root: [UInt8] { nodes.first ?? [UInt8](repeating: 0, count: 32) }

    /// The node index of leaf `leafIndex` (`n − 1 + leafIndex`).
    package func nodeIndex(ofLeaf leafIndex: Int) -> Int { leafCount - 1 + leafIndex }
}
