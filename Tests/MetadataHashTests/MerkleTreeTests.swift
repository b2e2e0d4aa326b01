import Foundation
import MetadataHash
import ScaleCodec
import SigningKeys
import Testing

/// The tree layout on small hand-built type sets. Resources/merkle-layout.json was computed by
/// scripts/interop/metadata_hash_vectors.py with the PyPI `blake3` package and RFC-0078's queue
/// pseudo-code, from the same eight leaves written in Python; here they are built as `TypeLeaf`s.
@Suite struct MerkleTreeTests {
    /// The generator's eight leaves (keep in step with `LEAVES` in the script).
    static let handBuilt: [TypeLeaf] = [
        TypeLeaf(
            path: ["test", "Id"], definition: .composite([LeafField(name: "id", type: .u32, typeName: "u32")]),
            typeId: 0),
        TypeLeaf(
            path: ["test", "Call"],
            definition: .enumeration(
                LeafVariant(
                    name: "transfer",
                    fields: [
                        LeafField(name: nil, type: .byId(0), typeName: "Id"),
                        LeafField(name: "amount", type: .compactU128, typeName: "Balance"),
                    ], index: 0)), typeId: 1),
        TypeLeaf(
            path: ["test", "Call"],
            definition: .enumeration(
                LeafVariant(
                    name: "remark", fields: [LeafField(name: nil, type: .byId(2), typeName: "Vec<u8>")], index: 5)),
            typeId: 1),
        TypeLeaf(path: [], definition: .sequence(.u8), typeId: 2),
        TypeLeaf(path: [], definition: .array(length: 32, element: .u8), typeId: 3),
        TypeLeaf(path: [], definition: .tuple([.byId(0), .bool]), typeId: 4),
        TypeLeaf(
            path: ["bitvec", "vec", "BitVec"], definition: .bitSequence(numBytes: 1, leastSignificantBitFirst: true),
            typeId: 5),
        TypeLeaf(path: [], definition: .sequence(.byId(4)), typeId: 6),
    ]

    struct Vector: CustomTestStringConvertible, Sendable {
        let leafCount: Int
        let encodings: [String]
        let hashes: [String]
        let shape: String
        let root: String
        var testDescription: String { "\(leafCount) leaves" }
    }

    static let vectors: [Vector] = {
        guard let file = try? TestResources.json("merkle-layout.json"), let list = file["vectors"] as? [[String: Any]]
        else { return [] }
        return list.compactMap { v in
            guard let n = v["leafCount"] as? Int, let leaves = v["leaves"] as? [[String: String]],
                let shape = v["shape"] as? String, let root = v["root"] as? String
            else { return nil }
            return Vector(
                leafCount: n, encodings: leaves.compactMap { $0["encoded"] }, hashes: leaves.compactMap { $0["hash"] },
                shape: shape, root: root)
        }
    }()

    @Test func theIssuesLeafCountsAreAllThere() {
        #expect(Set(Self.vectors.map(\.leafCount)).isSuperset(of: [1, 2, 3, 5, 8]))
    }

    @Test(arguments: vectors)
    func rootShapeAndLeavesMatchTheIndependentComputation(vector: Vector) {
        let leaves = Array(Self.handBuilt.prefix(vector.leafCount))
        #expect(leaves.map { hex($0.encoded) } == vector.encodings)
        #expect(leaves.map { hex($0.hash) } == vector.hashes)
        let tree = MerkleTree(leafHashes: leaves.map(\.hash))
        #expect(Self.shape(of: tree) == vector.shape)
        #expect(hex(tree.root) == vector.root)
    }

    /// RFC-0078 "Building the Merkle Tree Root" draws these two trees.
    @Test func theRFCsDrawnExamplesHaveTheirShapes() {
        let hashes = (0..<6).map { Blake3.hash([UInt8($0)]) }
        #expect(Self.shape(of: MerkleTree(leafHashes: Array(hashes.prefix(5)))) == "[[[3, 4], 0], [1, 2]]")
        #expect(Self.shape(of: MerkleTree(leafHashes: hashes)) == "[[[2, 3], [4, 5]], [0, 1]]")
    }

    @Test func noLeavesGiveTheZeroRootAndOneLeafIsItsOwnRoot() {
        #expect(MerkleTree(leafHashes: []).root == [UInt8](repeating: 0, count: 32))
        let one = Blake3.hash([7])
        #expect(MerkleTree(leafHashes: [one]).root == one)
    }

    /// The array form equals the RFC's queue form, run literally, for every size up to 70.
    @Test func heapLayoutEqualsTheRFCsQueueForEverySize() {
        for n in 0...70 {
            let hashes = (0..<n).map { Blake3.hash([UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: n)]) }
            var queue = hashes
            while queue.count > 1 {
                let right = queue.removeLast()
                let left = queue.removeLast()
                queue.insert(Blake3.hash(left + right), at: 0)
            }
            let expected = queue.last ?? [UInt8](repeating: 0, count: 32)
            #expect(MerkleTree(leafHashes: hashes).root == expected, "\(n) leaves")
        }
    }

    @Test func leafOrderMatters() {
        let hashes = (0..<4).map { Blake3.hash([UInt8($0)]) }
        #expect(MerkleTree(leafHashes: hashes).root != MerkleTree(leafHashes: hashes.reversed()).root)
    }

    /// The nested leaf numbers of the tree's array form, read from the node hashes.
    static func shape(of tree: MerkleTree) -> String {
        guard tree.leafCount > 0 else { return "" }
        func describe(_ i: Int) -> String {
            if i >= tree.leafCount - 1 { return String(i - (tree.leafCount - 1)) }
            #expect(tree.nodes[i] == Blake3.hash(tree.nodes[2 * i + 1] + tree.nodes[2 * i + 2]))
            return "[\(describe(2 * i + 1)), \(describe(2 * i + 2))]"
        }
        return describe(0)
    }
}
