import CEpoll
import Dispatch
import Glibc
import Synchronization

/// One event loop: a level-triggered epoll set of connection sockets, watched by a single
/// `DispatchSourceRead` on the epoll descriptor, and drained on one serial Dispatch queue.
///
/// Why not one `DispatchSource` per socket: on Linux libdispatch registers every fd source
/// `EPOLLONESHOT` on its manager thread, so each event costs an `ioctl(SIOCINQ)`, a hop from the
/// manager thread to a worker, and a second hop back to the manager to re-arm with
/// `EPOLL_CTL_MOD` (docs/reference/http-server.md §2.1, §2.5; measured here with `strace -f`: an eventfd poke and a
/// futex wake per request). With the sockets in our own persistent epoll set, Dispatch delivers one
/// event per *batch* of ready sockets, and interest changes are direct `epoll_ctl` calls on the
/// loop's queue. Threads, queues, timers and cross-thread hand-off remain Dispatch's.
///
/// Confinement: `members`, `current` and the event buffer are touched only on `queue`; the class is
/// `@unchecked Sendable` for that reason. A member is looked up by its connection id (the epoll
/// `data` token), never by fd number, so an event for a socket closed earlier in the same batch, or
/// for a reused fd number, never reaches the wrong connection.
final class EventLoop: @unchecked Sendable {
    /// What a member wants to hear about; errors and hang-ups are always reported (epoll(7)).
    struct Interest: Equatable {
        var read: Bool
        var write: Bool

        var events: UInt32 {
            (read ? EPOLLIN.rawValue : 0) | (write ? EPOLLOUT.rawValue : 0)
        }
    }

    /// Events from one `epoll_wait`, as the member sees them.
    struct Readiness {
        let events: UInt32
        var readable: Bool { events & EPOLLIN.rawValue != 0 }
        var writable: Bool { events & EPOLLOUT.rawValue != 0 }
        /// Error or hang-up: the socket is dead or half-dead; a read or write will say which.
        var failed: Bool { events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 }
    }

    private let closedFlag = Atomic<Bool>(false)
    /// True once the epoll descriptor is closed (after `stop()`); any thread.
    var descriptorClosed: Bool { closedFlag.load(ordering: .acquiring) }

    private static let identityKey = DispatchSpecificKey<UInt64>()
    private static let identities = Atomic<UInt64>(0)
    /// Ready sockets taken per `epoll_wait`, and `epoll_wait` rounds per Dispatch event: bounds the
    /// time other work queued on `queue` (replies, sweeps) waits behind a busy loop.
    private static let batchSize = 64
    private static let roundsPerEvent = 8

    let queue: DispatchQueue
    private let identity: UInt64
    private let epollFD: Int32
    private let source: any DispatchSourceRead
    private let buffer: UnsafeMutableBufferPointer<epoll_event>
    private var members: [UInt64: Connection] = [:]
    private var started = false
    private var stopped = false
    /// The id of the member whose event is being handled, 0 outside one.
    private var current: UInt64 = 0

    /// `nil` when the kernel gives no epoll descriptor (EMFILE/ENFILE/ENOMEM).
    init?(label: String) {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { return nil }
        epollFD = fd
        identity = Self.identities.add(1, ordering: .relaxed).newValue
        queue = DispatchQueue(label: label, qos: .userInitiated)
        queue.setSpecific(key: Self.identityKey, value: identity)
        buffer = .allocate(capacity: Self.batchSize)
        buffer.initialize(repeating: epoll_event())
        // The epoll descriptor is readable while any member is ready (level-triggered).
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        // Captures `self` strongly: the cycle is broken by `stop()` (Dispatch releases handlers after
        // cancellation), which the server calls once its last connection is closed.
        source.setEventHandler { self.drain() }
        source.setCancelHandler { [buffer] in
            // Dispatch no longer watches the descriptor: now it may be closed (docs/reference/http-server.md §2.3).
            Glibc.close(fd)
            buffer.deallocate()
            self.closedFlag.store(true, ordering: .releasing)
        }
    }

    /// Starts delivering events. Idempotent.
    func start() {
        queue.async {
            guard !self.started, !self.stopped else { return }
            self.started = true
            self.source.resume()
        }
    }

    /// Stops the loop for good (after its server closed every connection); the epoll descriptor is
    /// closed in the source's cancel handler.
    func stop() {
        queue.async {
            guard !self.stopped else { return }
            self.stopped = true
            self.source.cancel()
            // A never-activated source must be resumed before release (Dispatch `cancel()` docs).
            if !self.started { self.source.resume() }
        }
    }

    /// True when called on this loop's queue while it handles the member `id`'s event: then a reply
    /// for that member may be processed synchronously (it is in a consistent state).
    func isHandling(_ id: UInt64) -> Bool {
        DispatchQueue.getSpecific(key: Self.identityKey) == identity && current == id
    }

    /// Debug builds: traps unless called on this loop's queue, where `members`, `current` and every
    /// member's state are confined. Release builds: nothing (it runs on every event).
    @inline(__always)
    func assertOnLoopQueue() {
        #if DEBUG
            dispatchPrecondition(condition: .onQueue(queue))
        #endif
    }

    // MARK: Membership (on `queue`)

    /// Adds a socket; false (and nothing registered) if the kernel refuses (ENOMEM, ENOSPC for
    /// `max_user_watches`).
    func add(_ connection: Connection, fd: Int32, interest: Interest) -> Bool {
        // Checked in release builds too: once per connection.
        dispatchPrecondition(condition: .onQueue(queue))
        var event = epoll_event()
        event.events = interest.events
        event.data.u64 = connection.id
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else { return false }
        members[connection.id] = connection
        return true
    }

    /// Changes what a member listens for; false if the kernel refused (the caller drops the
    /// connection).
    func modify(id: UInt64, fd: Int32, interest: Interest) -> Bool {
        assertOnLoopQueue()
        var event = epoll_event()
        event.events = interest.events
        event.data.u64 = id
        return epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event) == 0
    }

    /// Removes a member; call before closing its socket, so the number can be reused safely.
    func remove(id: UInt64, fd: Int32) {
        assertOnLoopQueue()
        var event = epoll_event()
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, &event)
        members[id] = nil
    }

    // MARK: Events

    private func drain() {
        assertOnLoopQueue()
        // More rounds while sockets keep turning ready: requests that arrived while this batch was
        // handled are taken without another Dispatch event (and its two thread hops).
        for _ in 0..<Self.roundsPerEvent {
            let n = epoll_wait(epollFD, buffer.baseAddress, Int32(Self.batchSize), 0)
            // 0: nothing ready; -1 (EINTR): the level-triggered source fires again if anything is.
            guard n > 0 else { return }
            for index in 0..<Int(n) {
                let event = buffer[index]
                let id = event.data.u64
                guard let member = members[id] else { continue }
                current = id
                member.handle(Readiness(events: event.events))
                current = 0
            }
        }
    }
}
