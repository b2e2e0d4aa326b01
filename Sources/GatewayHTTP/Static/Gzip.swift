import CZlib

/// gzip compression (RFC 1952) through zlib, used once per static file at load time.
enum Gzip {
    /// Compresses `bytes` at level 9. Returns `nil` if zlib reports an error.
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        // zlib counts in UInt32 (`avail_in`); larger inputs are simply not compressed.
        guard UInt32(exactly: bytes.count) != nil, UInt32(exactly: bytes.count + bytes.count / 8 + 1024) != nil else {
            return nil
        }
        var stream = z_stream()
        // windowBits 15 + 16 selects the gzip wrapper (zlib.h, deflateInit2).
        let initResult = deflateInit2_(
            &stream, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard initResult == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, UInt(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        var input = bytes
        let result: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = UInt32(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = UInt32(outBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        output.removeLast(Int(stream.avail_out))
        return output
    }

    /// Decompresses a gzip member (used by tests to check round trips). Bounded by `limit` bytes.
    static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        guard UInt32(exactly: bytes.count) != nil else { return nil }
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { inflateEnd(&stream) }
        var input = bytes
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status: Int32 = Z_OK
        input.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = UInt32(inBuffer.count)
            while status == Z_OK {
                chunk.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = UInt32(outBuffer.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    result.append(contentsOf: outBuffer[0..<(outBuffer.count - Int(stream.avail_out))])
                }
                if result.count > limit { status = Z_BUF_ERROR }
            }
        }
        return status == Z_STREAM_END ? result : nil
    }
}
