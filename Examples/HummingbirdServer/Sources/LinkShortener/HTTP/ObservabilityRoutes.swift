import Hummingbird
import NIOCore

/// `GET /metrics`, the injector's metrics in the Prometheus text format, and `GET /traces`, the
/// spans the server keeps: the start-up's, and the most recent ones after it.
enum ObservabilityRoutes {
    /// The content type of the Prometheus text format.
    static let prometheusContentType = "text/plain; version=0.0.4; charset=utf-8"

    static func add(to router: Router<some RequestContext>, observability: Observability) {
        router.get("metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = prometheusContentType
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: observability.prometheusText())))
        }

        router.get("traces") { _, _ in
            TracesResponse(
                startup: observability.tracer.startupSpans?.map(SpanResponse.init),
                recent: observability.tracer.recentSpans.map(SpanResponse.init)
            )
        }
    }
}
