import Primitives
import ScaleCodec
import SigningKeys

/// RFC-0078's proof for an extrinsic: the leaves needed to decode it, their positions in the tree,
/// and the hashes of the subtrees that hold no needed leaf, so that a signer holding only the
/// proof can decode the extrinsic and recompute the types-tree root (docs/reference/metadata-hash.md
/// §9). Same bytes as the `merkleized-metadata` crate's `Proof`.
///
/// SCALE: `leaves: Vec<Type>`, `leaf_indices: Vec<u32>` (tree node positions), `nodes: Vec<[u8; 32]>`.
package struct MetadataProof: Hashable, Sendable {
    /// The leaves, leftmost (deepest level first, then by position).
    package var leaves: [TypeLeaf]
    /// Each leaf's node position in the tree (heap order), in the same order.
    package var leafIndices: [UInt32]
    /// The other hashes needed, in the order the root computation consumes them.
    package var nodes: [[UInt8]]

    package init(leaves: [TypeLeaf], leafIndices: [UInt32], nodes: [[UInt8]]) {
        self.leaves = leaves
        self.leafIndices = leafIndices
        self.nodes = nodes
    }

    /// The SCALE encoding.
    package var encoded: [UInt8] {
        var w = ScaleWriter(capacity: 4096)
        w.writeVector(leaves) { w, leaf in leaf.encode(to: &w) }
        w.writeVector(leafIndices) { w, i in w.writeU32(i) }
        w.writeVector(nodes) { w, h in w.write(raw: h) }
        return w.bytes
    }

    /// What Ledger's generic app (and the crate's users) send a signer: this proof, the extrinsic
    /// layout and the extra information, concatenated in SCALE (`MetadataProof { proof,
    /// extrinsic, extra_info }`).
    package func encoded(extrinsic: ExtrinsicLayout, extra: ExtraInfo) -> [UInt8] {
        var w = ScaleWriter(capacity: 4096)
        w.write(raw: encoded)
        w.write(raw: extrinsic.encoded)
        w.writeU32(extra.specVersion)
        w.writeString(extra.specName)
        w.writeU16(extra.base58Prefix)
        w.writeU8(extra.decimals)
        w.writeString(extra.tokenSymbol)
        return w.bytes
    }

    /// The types-tree root the proof stands for: leaves hashed at their positions, given hashes
    /// elsewhere, combined up to node 0. A verifier compares it with the root in the digest.
    /// - Throws: `invalidProof` when the proof is inconsistent (unsorted or duplicate positions,
    ///   too few or too many hashes).
    package func root() throws -> [UInt8] {
        guard leaves.count == leafIndices.count else {
            throw MetadataHashError(.invalidProof, "\(leaves.count) leaves but \(leafIndices.count) positions")
        }
        var nextLeaf = 0
        var nextNode = 0
        func hash(at index: UInt64, depth: Int) throws -> [UInt8] {
            guard depth <= 64 else { throw MetadataHashError(.invalidProof, "a leaf position deeper than 64 levels") }
            if nextLeaf < leafIndices.count {
                let leafIndex = UInt64(leafIndices[nextLeaf])
                if leafIndex == index {
                    nextLeaf += 1
                    return leaves[nextLeaf - 1].hash
                }
                if TreePosition.isDescendant(leafIndex, of: index) {
                    let left = try hash(at: 2 * index + 1, depth: depth + 1)
                    let right = try hash(at: 2 * index + 2, depth: depth + 1)
                    return Blake3.hash(concatenating: left, right)
                }
            }
            guard nextNode < nodes.count, nodes[nextNode].count == 32 else {
                throw MetadataHashError(.invalidProof, "the proof lacks a node hash")
            }
            nextNode += 1
            return nodes[nextNode - 1]
        }
        let root = try hash(at: 0, depth: 0)
        guard nextLeaf == leaves.count, nextNode == nodes.count else {
            throw MetadataHashError(.invalidProof, "the proof has leaves or hashes that the tree does not use")
        }
        return root
    }
}

/// Positions in the heap-ordered tree: node `i` has parent `(i − 1) / 2` and children `2i + 1`, `2i + 2`.
enum TreePosition {
    static func level(_ i: UInt64) -> Int { 63 - (i + 1).leadingZeroBitCount }

    /// Whether `node` lies in the subtree rooted at `ancestor` (itself included).
    static func isDescendant(_ node: UInt64, of ancestor: UInt64) -> Bool {
        if ancestor == 0 { return true }
        if ancestor > node { return false }
        return ancestor + 1 == (node + 1) >> UInt64(level(node) - level(ancestor))
    }
}

extension TypeInformation {
    /// The proof for a signed extrinsic given in parts: its call, the extensions' explicit data
    /// (as in the extrinsic) and implicit data (as signed). The address and signature types are
    /// included whole (every variant), since their values are not given (the crate's
    /// `generate_proof_for_extrinsic_parts` with signed data).
    /// - Throws: `undecodable` when the parts do not decode or bytes are left after the call.
    package func proof(call: [UInt8], includedInExtrinsic: [UInt8], includedInSignedData: [UInt8]) throws
        -> MetadataProof
    {
        var collector = AccessCollector(self)
        try collector.decodeAll(call, [extrinsic.callType], what: "call")
        collector.collectAll(extrinsic.addressType)
        collector.collectAll(extrinsic.signatureType)
        var explicit = ScaleReader(includedInExtrinsic)
        var implicit = ScaleReader(includedInSignedData)
        for e in extrinsic.signedExtensions {
            try collector.decode(e.includedInExtrinsic, &explicit, what: "data in extrinsic (\(e.identifier))")
            try collector.decode(e.includedInSignedData, &implicit, what: "signed extra data (\(e.identifier))")
        }
        return try buildProof(collector.accessed)
    }

    /// The proof for an unsigned call alone.
    package func proof(call: [UInt8]) throws -> MetadataProof {
        var collector = AccessCollector(self)
        try collector.decodeAll(call, [extrinsic.callType], what: "call")
        return try buildProof(collector.accessed)
    }

    /// The proof for a whole extrinsic (v4, signed or not), and for the implicit data it was
    /// signed with when given (the crate's `generate_proof_for_extrinsic`).
    /// - Throws: `undecodable` when it does not decode or bytes are left over.
    package func proof(extrinsic bytes: [UInt8], additionalSigned: [UInt8]? = nil) throws -> MetadataProof {
        try buildProof(try proofKeys(extrinsic: bytes, additionalSigned: additionalSigned))
    }

    /// The leaves decoding a whole extrinsic uses.
    func proofKeys(extrinsic bytes: [UInt8], additionalSigned: [UInt8]?) throws -> Set<LeafKey> {
        var collector = AccessCollector(self)
        var r = ScaleReader(bytes)
        do {
            _ = try r.readCompact(as: UInt32.self)
            let version = try r.readU8()
            guard version & 0x7F == 4 else {
                throw MetadataHashError(.undecodable, "extrinsic version \(version & 0x7F), not 4")
            }
            if version & 0x80 != 0 {
                try collector.decode(extrinsic.addressType, &r, what: "address")
                try collector.decode(extrinsic.signatureType, &r, what: "signature")
                for e in extrinsic.signedExtensions {
                    try collector.decode(e.includedInExtrinsic, &r, what: "extra (\(e.identifier))")
                }
            }
            try collector.decode(extrinsic.callType, &r, what: "call")
            guard r.isAtEnd else {
                throw MetadataHashError(.undecodable, "\(r.remaining) byte(s) left after the extrinsic")
            }
        } catch let error as ScaleError {
            throw MetadataHashError(.undecodable, "extrinsic: \(error.reason)")
        }
        if let additionalSigned {
            var implicit = ScaleReader(additionalSigned)
            for e in extrinsic.signedExtensions {
                try collector.decode(e.includedInSignedData, &implicit, what: "additional signed (\(e.identifier))")
            }
        }
        return collector.accessed
    }

    /// The proof for the given leaves: their node positions sorted deepest level first, then left
    /// to right, and the hashes of the sibling subtrees that contain none of them.
    func buildProof(_ keys: Set<LeafKey>) throws -> MetadataProof {
        let tree = self.tree
        let n = UInt64(leaves.count)
        var indexByKey: [LeafKey: Int] = [:]
        for (i, leaf) in leaves.enumerated() { indexByKey[LeafKey(leaf)] = i }
        var positions: [UInt64] = []
        for key in keys {
            guard let i = indexByKey[key] else {
                throw MetadataHashError(.unknownType, "type \(key.typeId) is not a leaf of the tree")
            }
            positions.append(n - 1 + UInt64(i))
        }
        positions.sort { a, b in
            let (la, lb) = (TreePosition.level(a), TreePosition.level(b))
            return la != lb ? la > lb : a < b
        }
        var hashes: [[UInt8]] = []
        var next = 0
        func node(_ i: UInt64) throws -> [UInt8] {
            guard i < UInt64(tree.nodes.count) else {
                throw MetadataHashError(.invalidProof, "a one-leaf tree has no sibling for a proof")
            }
            return tree.nodes[Int(i)]
        }
        // From `leaf` up to `stop`: a right sibling that holds the next leaves is descended into,
        // any other sibling contributes its hash (left siblings go before this walk's hashes).
        func collect(stop: UInt64, leaf: UInt64) throws {
            var current = leaf
            let leftmost = hashes.count
            while true {
                let parent = current == 0 ? 0 : (current - 1) / 2
                if current % 2 == 1 {
                    let right = 2 * parent + 2
                    if next < positions.count, positions[next] == right {
                        next += 1
                    } else if next < positions.count, TreePosition.isDescendant(positions[next], of: right) {
                        let nextLeaf = positions[next]
                        next += 1
                        try collect(stop: right, leaf: nextLeaf)
                    } else {
                        hashes.append(try node(right))
                    }
                } else {
                    hashes.insert(try node(2 * parent + 1), at: leftmost)
                }
                if parent == stop { return }
                current = parent
            }
        }
        if let first = positions.first {
            next = 1
            try collect(stop: 0, leaf: first)
        }
        return MetadataProof(
            leaves: positions.map { leaves[Int($0 - (n - 1))] },
            leafIndices: positions.map { UInt32(truncatingIfNeeded: $0) }, nodes: hashes)
    }
}

/// A leaf's identity: its type's new id and, for an enum, the variant index.
struct LeafKey: Hashable {
    var typeId: UInt32
    var variant: UInt32?

    init(typeId: UInt32, variant: UInt32?) {
        self.typeId = typeId
        self.variant = variant
    }

    init(_ leaf: TypeLeaf) { self.init(typeId: leaf.typeId, variant: leaf.variantIndex) }
}

/// Decodes values with the RFC-0078 types and records which leaves the decoding used (the crate's
/// `CollectAccessedTypes`): a composite, sequence, array, tuple or bit sequence when one is
/// decoded, an enum's variant when that variant is.
struct AccessCollector {
    /// Nesting allowed while decoding (the crate's `MAX_STACK_DEPTH`).
    static let maxDepth = 1000
    /// Values visited at most, plus one per input byte (zero-sized elements cannot loop forever).
    static let maxValues = 1 << 20

    let byId: [UInt32: [TypeLeaf]]
    var accessed = Set<LeafKey>()
    var depth = 0
    var budget = AccessCollector.maxValues

    init(_ info: TypeInformation) {
        var byId: [UInt32: [TypeLeaf]] = [:]
        for leaf in info.leaves { byId[leaf.typeId, default: []].append(leaf) }
        self.byId = byId
    }

    /// Decodes `bytes` as the types in order and requires every byte to be used.
    mutating func decodeAll(_ bytes: [UInt8], _ types: [TypeRef], what: String) throws {
        var r = ScaleReader(bytes)
        budget += bytes.count
        for t in types { try decode(t, &r, what: what) }
        guard r.isAtEnd else { throw MetadataHashError(.undecodable, "\(r.remaining) byte(s) left in the \(what)") }
    }

    mutating func decode(_ type: TypeRef, _ r: inout ScaleReader, what: String) throws {
        budget += r.remaining
        do { try decode(type, &r) } catch let error as ScaleError {
            throw MetadataHashError(.undecodable, "\(what): \(error.reason)")
        } catch let error as MetadataHashError {
            throw MetadataHashError(error.code, "\(what): \(error.reason)")
        }
    }

    private mutating func decode(_ type: TypeRef, _ r: inout ScaleReader) throws {
        budget -= 1
        guard budget >= 0 else { throw MetadataHashError(.undecodable, "too many values") }
        switch type {
        case .bool: _ = try r.readBool()
        case .char:
            guard Unicode.Scalar(try r.readU32()) != nil else { throw MetadataHashError(.undecodable, "invalid char") }
        case .str: try r.skip(try r.readLength())
        case .u8, .i8: try r.skip(1)
        case .u16, .i16: try r.skip(2)
        case .u32, .i32: try r.skip(4)
        case .u64, .i64: try r.skip(8)
        case .u128, .i128: try r.skip(16)
        case .u256, .i256: try r.skip(32)
        case .compactU8: _ = try r.readCompact(as: UInt8.self)
        case .compactU16: _ = try r.readCompact(as: UInt16.self)
        case .compactU32: _ = try r.readCompact(as: UInt32.self)
        case .compactU64: _ = try r.readCompact(as: UInt64.self)
        case .compactU128: _ = try r.readCompact(as: UInt128.self)
        case .compactU256: throw MetadataHashError(.undecodable, "CompactU256 is not decoded (as in the reference)")
        case .void: break
        case .byId(let id): try decode(id: id, &r)
        }
    }

    private mutating func decode(id: UInt32, _ r: inout ScaleReader) throws {
        guard depth < Self.maxDepth else {
            throw MetadataHashError(.undecodable, "nesting deeper than \(Self.maxDepth)")
        }
        depth += 1
        defer { depth -= 1 }
        guard let leaves = byId[id], let first = leaves.first else {
            throw MetadataHashError(.unknownType, "type \(id) is not in the type information")
        }
        switch first.definition {
        case .composite(let fields):
            if !fields.isEmpty { accessed.insert(LeafKey(typeId: id, variant: nil)) }
            for f in fields { try decode(f.type, &r) }
        case .enumeration:
            let index = try r.readU8()
            var chosen: LeafVariant?
            for leaf in leaves {
                guard case .enumeration(let v) = leaf.definition else {
                    throw MetadataHashError(.unsupportedType, "type \(id) mixes variants and other shapes")
                }
                if v.index == UInt32(index) { chosen = v }
            }
            guard let variant = chosen else {
                throw MetadataHashError(.undecodable, "type \(id) has no variant \(index)")
            }
            accessed.insert(LeafKey(typeId: id, variant: variant.index))
            for f in variant.fields { try decode(f.type, &r) }
        case .sequence(let element):
            accessed.insert(LeafKey(typeId: id, variant: nil))
            let count = try r.readCompact()
            guard count <= UInt128(budget) else { throw MetadataHashError(.undecodable, "too many values") }
            for _ in 0..<Int(count) { try decode(element, &r) }
        case .array(let length, let element):
            accessed.insert(LeafKey(typeId: id, variant: nil))
            guard length <= budget else { throw MetadataHashError(.undecodable, "too many values") }
            for _ in 0..<Int(length) { try decode(element, &r) }
        case .tuple(let elements):
            accessed.insert(LeafKey(typeId: id, variant: nil))
            for e in elements { try decode(e, &r) }
        case .bitSequence(let numBytes, _):
            accessed.insert(LeafKey(typeId: id, variant: nil))
            let bits = UInt64(try r.readCompact(as: UInt32.self))
            let storeBits = UInt64(numBytes) * 8
            guard storeBits > 0 else { throw MetadataHashError(.unsupportedType, "bit sequence \(id) with no store") }
            try r.skip(Int((bits + storeBits - 1) / storeBits * UInt64(numBytes)))
        }
    }

    /// Records every leaf reachable from `type` (all variants), without bytes.
    mutating func collectAll(_ type: TypeRef) {
        var stack = [type]
        while let t = stack.popLast() {
            guard case .byId(let id) = t else { continue }
            for leaf in byId[id] ?? [] where accessed.insert(LeafKey(leaf)).inserted {
                switch leaf.definition {
                case .composite(let fields): stack += fields.map(\.type)
                case .enumeration(let v): stack += v.fields.map(\.type)
                case .sequence(let e), .array(_, let e): stack.append(e)
                case .tuple(let elements): stack += elements
                case .bitSequence: break
                }
            }
        }
    }
}
