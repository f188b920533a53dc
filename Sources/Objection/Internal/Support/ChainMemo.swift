/// What walks up a chain the user can make as long as they like — a table's ancestors, an
/// injector's — found above one of its links, kept by that link.
///
/// A walk from a child looks at each ancestor until one answers, so resolving from every level
/// of a chain of 100,000 children would cost the square of its length. Every ``interval``-th link
/// of a chain keeps a memo instead: a walk that reaches such a link asks its memo, and a walk that
/// passes it tells it what was found above (``find(_:from:parent:memo:answer:)``). The first walk
/// for a key goes as far as it must; those after it look at about two intervals of links at most. The chains are immutable, so what was found
/// above a link never changes. Links closer to the root than an interval — every request scope,
/// every ordinary child — keep nothing and cost nothing. A memo keeps at most ``capacity`` keys:
/// a server that asks for names its clients send (`get(_:named:)` with a path segment) must not
/// grow it without bound. A full memo is emptied and filled again: a key asked after that walks
/// as far as it must once more, and is remembered again.
///
/// ```swift
/// let owner = ChainMemo.find(tableID, from: injector, parent: \.parent, memo: \.ownedMemo) { link in
///     link.ownsTable && link.table.id == tableID ? link : nil
/// }
/// ```
final class ChainMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// What was found above the link for each key asked; `nil` for a key nothing above answers.
    private let found = Lock([Key: Value?]())

    /// How many links of a chain pass between two that keep a memo.
    static var interval: Int { 16 }

    /// How many keys one memo keeps at most.
    static var capacity: Int { 4_096 }

    /// How many keys this memo keeps.
    var count: Int { found.withLock(\.count) }

    /// A memo for the link at `depth` of its chain (the root's is 0), if that link keeps one.
    static func forLink(atDepth depth: Int) -> ChainMemo? {
        depth > 0 && depth % interval == 0 ? ChainMemo() : nil
    }

    /// The first answer for `key` from `start` or its ancestors: `answer` asked of each link,
    /// nearest first, with the memos on the way asked and, past them, told what was found.
    static func find<Link: AnyObject>(
        _ key: Key,
        from start: Link,
        parent: (Link) -> Link?,
        memo: (Link) -> ChainMemo?,
        answer: (Link) -> Value?
    ) -> Value? {
        var passed: [ChainMemo] = []
        var found: Value?
        var link: Link? = start
        while let current = link {
            if let value = answer(current) {
                found = value
                break
            }
            if let memo = memo(current) {
                if let known = memo.found.withLock({ $0[key] }) {
                    found = known
                    break
                }
                passed.append(memo)
            }
            link = parent(current)
        }
        for memo in passed {
            memo.found.withLock { known in
                // Full: start again rather than keep the first keys forever, so that keys made
                // up by clients cannot crowd out, for good, the ones the application asks.
                if known.count >= capacity, known[key] == nil { known.removeAll(keepingCapacity: true) }
                known[key] = .some(found)
            }
        }
        return found
    }
}
