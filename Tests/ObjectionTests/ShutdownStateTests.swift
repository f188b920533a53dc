import Testing

@testable import Objection

/// `ShutdownState`'s record of disposals, driven by hand: the first held inline, the rest in an
/// array, all handed back newest first.
@Suite("Shutdown state")
struct ShutdownStateTests {
    /// A disposal that does nothing, told apart by its key's name.
    func disposal(_ name: String) -> Disposal {
        Disposal(key: BindingKey(Engine.self, named: name), dispose: { _ in })
    }

    func names(_ disposals: Disposals) -> [String?] {
        disposals.map(\.key.name)
    }

    @Test("close hands the disposals back newest first, however many were recorded")
    func newestFirst() {
        for count in 0...4 {
            var state = ShutdownState()
            let recorded = (0..<count).map { "d\($0)" }
            for name in recorded {
                let recordedNow = state.record(disposal(name))
                #expect(recordedNow)
            }
            #expect(state.hasDisposals == (count > 0))
            #expect(names(state.close()) == recorded.reversed())
        }
    }

    @Test("once closed, nothing more is recorded or handed back")
    func closedRecordsNothing() {
        var state = ShutdownState()
        let recordedFirst = state.record(disposal("first"))
        let recordedSecond = state.record(disposal("second"))
        #expect(recordedFirst && recordedSecond)
        #expect(names(state.close()) == ["second", "first"])
        #expect(state.isClosed)
        #expect(!state.hasDisposals)
        let recordedLate = state.record(disposal("late"))
        #expect(!recordedLate)
        #expect(names(state.close()).isEmpty)
    }
}
