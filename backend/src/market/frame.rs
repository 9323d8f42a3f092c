//! WebSocket framing (RFC 6455) for the market channel, below poem's WebSocket type.
//!
//! Server frames are never masked, so a message's frame is the same bytes for every client: the hub
//! frames each message once ([`text_frame`]) and every client's task copies those bytes into its
//! write, with no per-client framing or `String`. Client frames are read by [`FrameReader`]: masked
//! (required of clients), fragmented or not, control frames between fragments; a message longer than
//! its limit is skipped without being buffered and reported as [`Incoming::TooLong`], so the reader
//! holds at most one frame of the limit's size.

/// Continuation of a fragmented message.
const OP_CONTINUATION: u8 = 0x0;
/// A text message (UTF-8).
pub const OP_TEXT: u8 = 0x1;
/// A binary message.
const OP_BINARY: u8 = 0x2;
/// Closes the connection.
pub const OP_CLOSE: u8 = 0x8;
/// Asks for a pong.
pub const OP_PING: u8 = 0x9;
/// Answers a ping.
pub const OP_PONG: u8 = 0xA;

/// Close code: normal closure.
pub const CLOSE_NORMAL: u16 = 1000;
/// Close code: the peer broke the protocol.
pub const CLOSE_PROTOCOL: u16 = 1002;
/// Close code: a text message that is not UTF-8.
pub const CLOSE_INVALID_DATA: u16 = 1007;
/// Close code: the peer broke a policy (too slow, idle).
pub const CLOSE_POLICY: u16 = 1008;
/// The most a control frame may carry.
const MAX_CONTROL_PAYLOAD: usize = 125;

/// The largest a frame header can be: 2 bytes, a 64-bit length and a mask.
const MAX_HEADER: usize = 14;

/// Appends one unmasked, final frame of `opcode` carrying `payload` to `out`.
pub fn put_frame(out: &mut Vec<u8>, opcode: u8, payload: &[u8]) {
    put_header(out, 0x80 | opcode, 0, payload.len());
    out.extend_from_slice(payload);
}

/// Appends a masked frame (as clients must send them) with `first` as its first byte (FIN,
/// opcode), masking key `mask` and `payload` to `out`.
pub fn put_masked_frame(out: &mut Vec<u8>, first: u8, mask: [u8; 4], payload: &[u8]) {
    put_header(out, first, 0x80, payload.len());
    out.extend_from_slice(&mask);
    out.extend(payload.iter().zip(mask.iter().cycle()).map(|(b, k)| b ^ k));
}

/// A frame's first byte, then its length (7 bits, or 126 / 127 and 16 / 64 bits) with the mask
/// bit `masked` (0 or 0x80).
fn put_header(out: &mut Vec<u8>, first: u8, masked: u8, len: usize) {
    out.push(first);
    match len {
        0..=125 => out.push(masked | len as u8),
        126..=0xFFFF => {
            out.push(masked | 126);
            out.extend_from_slice(&(len as u16).to_be_bytes());
        }
        _ => {
            out.push(masked | 127);
            out.extend_from_slice(&(len as u64).to_be_bytes());
        }
    }
}

/// The frame of the text message `text` and the length of its header (the text follows it).
pub fn text_frame(text: &str) -> (Box<[u8]>, usize) {
    let mut out = Vec::with_capacity(text.len() + 10);
    put_frame(&mut out, OP_TEXT, text.as_bytes());
    let header = out.len() - text.len();
    (out.into_boxed_slice(), header)
}

/// Appends a close frame with `code` and `reason` (cut at a character boundary to fit the 125
/// bytes a control frame may carry).
pub fn put_close(out: &mut Vec<u8>, code: u16, reason: &str) {
    let mut end = reason.len().min(MAX_CONTROL_PAYLOAD - 2);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    let mut payload = Vec::with_capacity(2 + end);
    payload.extend_from_slice(&code.to_be_bytes());
    payload.extend_from_slice(&reason.as_bytes()[..end]);
    put_frame(out, OP_CLOSE, &payload);
}

/// What the client sent.
#[derive(Debug, PartialEq, Eq)]
pub enum Incoming {
    /// A whole text message.
    Text(String),
    /// A text message longer than the reader's limit (its content was skipped).
    TooLong,
    /// A binary message, or a pong: nothing to do but note that the client is alive.
    Other,
    /// A ping with its payload (to be answered with a pong carrying it).
    Ping(Vec<u8>),
    /// The client closes, with its close code if it gave one.
    Close(Option<u16>),
    /// The client broke the protocol: the connection is closed with this code and reason.
    Invalid(u16, &'static str),
}

/// Reads client frames from the bytes received (see the module's notes).
#[derive(Debug)]
pub struct FrameReader {
    /// Received bytes not parsed yet.
    buf: Vec<u8>,
    /// The longest message kept; longer ones are skipped.
    limit: usize,
    /// The data message being assembled from fragments.
    message: Vec<u8>,
    /// The opcode of that message, while its last fragment has not arrived.
    open: Option<u8>,
    /// That message outgrew the limit: its fragments are skipped.
    too_long: bool,
    /// Payload bytes of the current frame still to skip.
    skip: u64,
    /// The skipped frame is its message's last.
    skip_fin: bool,
    /// A protocol error was reported: nothing more is read.
    failed: bool,
}

impl FrameReader {
    /// A reader keeping messages of at most `limit` bytes.
    pub fn new(limit: usize) -> Self {
        Self {
            buf: Vec::new(),
            limit,
            message: Vec::new(),
            open: None,
            too_long: false,
            skip: 0,
            skip_fin: false,
            failed: false,
        }
    }

    /// The buffer the socket reads into, with room for at least `room` more bytes.
    pub fn buffer(&mut self, room: usize) -> &mut Vec<u8> {
        self.buf.reserve(room);
        &mut self.buf
    }

    /// The next thing the client sent, from what has been received; `None` until more arrives.
    pub fn next_incoming(&mut self) -> Option<Incoming> {
        loop {
            if self.failed {
                return None;
            }
            if self.skip > 0 {
                let n = usize::try_from(self.skip)
                    .unwrap_or(usize::MAX)
                    .min(self.buf.len());
                self.buf.drain(..n);
                self.skip -= n as u64;
                if self.skip > 0 {
                    return None;
                }
                if self.skip_fin {
                    return Some(self.end_too_long());
                }
                continue;
            }
            let (header, len) = match self.header() {
                Ok(Some(parsed)) => parsed,
                Ok(None) => return None,
                Err(reason) => return Some(self.fail(CLOSE_PROTOCOL, reason)),
            };
            let fin = self.buf[0] & 0x80 != 0;
            let opcode = self.buf[0] & 0x0F;
            if opcode >= OP_CLOSE {
                let len = len as usize;
                if self.buf.len() < header + len {
                    return None;
                }
                let payload = self.unmasked(header, len);
                self.buf.drain(..header + len);
                return Some(match opcode {
                    OP_PING => Incoming::Ping(payload),
                    OP_PONG => Incoming::Other,
                    _ => close_of(&payload)
                        .unwrap_or_else(|| self.fail(CLOSE_PROTOCOL, "bad close frame")),
                });
            }
            let kind = match (opcode, self.open) {
                (OP_CONTINUATION, Some(kind)) => kind,
                (OP_TEXT | OP_BINARY, None) => opcode,
                _ => return Some(self.fail(CLOSE_PROTOCOL, "unexpected data frame")),
            };
            if self.too_long || self.message.len() as u64 + len > self.limit as u64 {
                self.open = Some(kind);
                self.too_long = true;
                self.message = Vec::new();
                self.buf.drain(..header);
                self.skip = len;
                self.skip_fin = fin;
                if len == 0 && fin {
                    return Some(self.end_too_long());
                }
                continue;
            }
            let len = len as usize;
            if self.buf.len() < header + len {
                return None;
            }
            let payload = self.unmasked(header, len);
            self.buf.drain(..header + len);
            self.open = Some(kind);
            self.message.extend_from_slice(&payload);
            if !fin {
                continue;
            }
            self.open = None;
            let message = std::mem::take(&mut self.message);
            if kind == OP_BINARY {
                return Some(Incoming::Other);
            }
            return Some(match String::from_utf8(message) {
                Ok(text) => Incoming::Text(text),
                Err(_) => self.fail(CLOSE_INVALID_DATA, "text is not UTF-8"),
            });
        }
    }

    /// The length of the current frame's header and its payload length; `None` until the whole
    /// header has arrived.
    fn header(&self) -> Result<Option<(usize, u64)>, &'static str> {
        let buf = &self.buf;
        if buf.len() < 2 {
            return Ok(None);
        }
        if buf[0] & 0x70 != 0 {
            return Err("reserved bits set");
        }
        let opcode = buf[0] & 0x0F;
        if !matches!(
            opcode,
            OP_CONTINUATION | OP_TEXT | OP_BINARY | OP_CLOSE | OP_PING | OP_PONG
        ) {
            return Err("unknown opcode");
        }
        if buf[1] & 0x80 == 0 {
            return Err("client frames must be masked");
        }
        let (len, at) = match buf[1] & 0x7F {
            126 if buf.len() >= 4 => (u64::from(u16::from_be_bytes([buf[2], buf[3]])), 4),
            127 if buf.len() >= 10 => {
                let mut bytes = [0u8; 8];
                bytes.copy_from_slice(&buf[2..10]);
                (u64::from_be_bytes(bytes), 10)
            }
            126 | 127 => return Ok(None),
            len => (u64::from(len), 2),
        };
        if len >> 63 != 0 {
            return Err("frame length out of range");
        }
        if opcode >= OP_CLOSE && (buf[0] & 0x80 == 0 || len > MAX_CONTROL_PAYLOAD as u64) {
            return Err("bad control frame");
        }
        let header = at + 4;
        debug_assert!(header <= MAX_HEADER);
        Ok((buf.len() >= header).then_some((header, len)))
    }

    /// The payload of `len` bytes after a header of `header` bytes, unmasked.
    fn unmasked(&self, header: usize, len: usize) -> Vec<u8> {
        let mut mask = [0u8; 4];
        mask.copy_from_slice(&self.buf[header - 4..header]);
        self.buf[header..header + len]
            .iter()
            .zip(mask.iter().cycle())
            .map(|(byte, key)| byte ^ key)
            .collect()
    }

    fn end_too_long(&mut self) -> Incoming {
        let kind = self.open.take();
        self.too_long = false;
        self.skip_fin = false;
        if kind == Some(OP_TEXT) {
            Incoming::TooLong
        } else {
            Incoming::Other
        }
    }

    fn fail(&mut self, code: u16, reason: &'static str) -> Incoming {
        self.failed = true;
        self.buf = Vec::new();
        Incoming::Invalid(code, reason)
    }

    /// Frees the buffer's room when nothing is pending (a connection mostly waits).
    pub fn shrink(&mut self) {
        if self.buf.is_empty() {
            self.buf = Vec::new();
        }
    }
}

/// The close of a close frame's payload: its code when it has one; `None` when malformed.
fn close_of(payload: &[u8]) -> Option<Incoming> {
    match payload.len() {
        0 => Some(Incoming::Close(None)),
        1 => None,
        _ => {
            std::str::from_utf8(&payload[2..]).ok()?;
            Some(Incoming::Close(Some(u16::from_be_bytes([
                payload[0], payload[1],
            ]))))
        }
    }
}

/// The whole server frames at the start of `bytes` (opcode and payload each) and how many bytes
/// follow them: what a client reads (for tests).
#[cfg(test)]
pub(crate) fn server_frames(mut bytes: &[u8]) -> (Vec<(u8, Vec<u8>)>, usize) {
    let mut frames = Vec::new();
    loop {
        if bytes.len() < 2 {
            return (frames, bytes.len());
        }
        assert_eq!(bytes[1] & 0x80, 0, "server frames are not masked");
        let (len, at) = match bytes[1] {
            126 if bytes.len() >= 4 => (usize::from(u16::from_be_bytes([bytes[2], bytes[3]])), 4),
            127 if bytes.len() >= 10 => {
                let mut len = [0u8; 8];
                len.copy_from_slice(&bytes[2..10]);
                (usize::try_from(u64::from_be_bytes(len)).unwrap(), 10)
            }
            126 | 127 => return (frames, bytes.len()),
            len => (usize::from(len), 2),
        };
        if bytes.len() < at + len {
            return (frames, bytes.len());
        }
        assert_eq!(bytes[0] & 0xF0, 0x80, "final frames without reserved bits");
        frames.push((bytes[0] & 0x0F, bytes[at..at + len].to_vec()));
        bytes = &bytes[at + len..];
    }
}

/// A masked client frame with `first` as its first byte (FIN, opcode), for tests.
#[cfg(test)]
pub(crate) fn client_frame(first: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    put_masked_frame(&mut out, first, [0x37, 0xfa, 0x21, 0x3d], payload);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(reader: &mut FrameReader, bytes: &[u8]) -> Vec<Incoming> {
        reader.buffer(bytes.len()).extend_from_slice(bytes);
        std::iter::from_fn(|| reader.next_incoming()).collect()
    }

    #[test]
    fn server_frames_carry_the_length_in_the_shortest_form() {
        for (len, header) in [(0, 2), (125, 2), (126, 4), (65_535, 4), (65_536, 10)] {
            let text = "x".repeat(len);
            let (frame, at) = text_frame(&text);
            assert_eq!(at, header, "{len}");
            assert_eq!(frame[0], 0x81);
            assert_eq!(frame[1] & 0x80, 0, "never masked");
            assert_eq!(&frame[at..], text.as_bytes());
        }
        let (frame, _) = text_frame(&"y".repeat(300));
        assert_eq!(&frame[1..4], &[126, 1, 44]);
    }

    #[test]
    fn a_close_reason_is_cut_to_fit_at_a_character_boundary() {
        let mut out = Vec::new();
        put_close(&mut out, CLOSE_POLICY, &"é".repeat(100));
        assert_eq!(out[0], 0x88);
        let len = out[1] as usize;
        assert!(len <= 125);
        assert_eq!(u16::from_be_bytes([out[2], out[3]]), CLOSE_POLICY);
        assert!(std::str::from_utf8(&out[4..]).is_ok());
        assert_eq!(len, 2 + 122);
    }

    #[test]
    fn masked_text_arrives_whole_even_byte_by_byte() {
        let mut reader = FrameReader::new(4096);
        let bytes = [
            client_frame(0x81, b"{\"op\":\"ping\"}"),
            client_frame(0x81, "ünïcode".as_bytes()),
        ]
        .concat();
        let mut got = Vec::new();
        for byte in bytes {
            got.extend(feed(&mut reader, &[byte]));
        }
        assert_eq!(
            got,
            [
                Incoming::Text("{\"op\":\"ping\"}".into()),
                Incoming::Text("ünïcode".into())
            ]
        );
        reader.shrink();
        assert_eq!(reader.buf.capacity(), 0);
    }

    #[test]
    fn fragments_join_and_control_frames_may_come_between() {
        let mut reader = FrameReader::new(4096);
        let bytes = [
            client_frame(0x01, b"hel"),
            client_frame(0x89, b"p"),
            client_frame(0x00, b"lo "),
            client_frame(0x8A, b""),
            client_frame(0x80, b"world"),
        ]
        .concat();
        assert_eq!(
            feed(&mut reader, &bytes),
            [
                Incoming::Ping(b"p".to_vec()),
                Incoming::Other,
                Incoming::Text("hello world".into())
            ]
        );
    }

    #[test]
    fn a_message_over_the_limit_is_skipped_and_reported_and_the_next_one_is_read() {
        let mut reader = FrameReader::new(100);
        let long = "x".repeat(70_000);
        let bytes = [
            client_frame(0x81, long.as_bytes()),
            client_frame(0x01, &[b'a'; 60]),
            client_frame(0x80, &[b'b'; 60]),
            client_frame(0x82, &[0; 200]),
            client_frame(0x81, b"ok"),
        ]
        .concat();
        let mut got = Vec::new();
        for chunk in bytes.chunks(1000) {
            got.extend(feed(&mut reader, chunk));
            assert!(reader.buf.len() <= 1000 + MAX_HEADER + 100);
        }
        assert_eq!(
            got,
            [
                Incoming::TooLong,
                Incoming::TooLong,
                Incoming::Other,
                Incoming::Text("ok".into())
            ]
        );
    }

    #[test]
    fn close_frames_give_their_code() {
        let mut reader = FrameReader::new(100);
        let mut payload = 1001u16.to_be_bytes().to_vec();
        payload.extend_from_slice(b"bye");
        assert_eq!(
            feed(&mut reader, &client_frame(0x88, &payload)),
            [Incoming::Close(Some(1001))]
        );
        assert_eq!(
            feed(&mut reader, &client_frame(0x88, b"")),
            [Incoming::Close(None)]
        );
    }

    #[test]
    fn protocol_errors_end_the_reading() {
        let cases: [(Vec<u8>, u16); 7] = [
            // Not masked.
            (vec![0x81, 0x02, b'h', b'i'], CLOSE_PROTOCOL),
            // A reserved bit.
            (client_frame(0xC1, b"hi"), CLOSE_PROTOCOL),
            // An unknown opcode.
            (client_frame(0x83, b"hi"), CLOSE_PROTOCOL),
            // A continuation with nothing to continue.
            (client_frame(0x80, b"hi"), CLOSE_PROTOCOL),
            // A fragmented ping.
            (client_frame(0x09, b"hi"), CLOSE_PROTOCOL),
            // A ping too long.
            (client_frame(0x89, &[0; 126]), CLOSE_PROTOCOL),
            // Not UTF-8.
            (client_frame(0x81, &[0xff, 0xfe]), CLOSE_INVALID_DATA),
        ];
        for (bytes, code) in cases {
            let mut reader = FrameReader::new(4096);
            let mut followed = bytes.clone();
            followed.extend(client_frame(0x81, b"after"));
            let got = feed(&mut reader, &followed);
            assert!(
                matches!(got.as_slice(), [Incoming::Invalid(c, _)] if *c == code),
                "{bytes:?}: {got:?}"
            );
        }
        // A new message while another is open.
        let mut reader = FrameReader::new(4096);
        let bytes = [client_frame(0x01, b"a"), client_frame(0x81, b"b")].concat();
        assert!(matches!(
            feed(&mut reader, &bytes).as_slice(),
            [Incoming::Invalid(CLOSE_PROTOCOL, _)]
        ));
        // A close frame of one byte.
        let mut reader = FrameReader::new(4096);
        assert!(matches!(
            feed(&mut reader, &client_frame(0x88, b"x")).as_slice(),
            [Incoming::Invalid(CLOSE_PROTOCOL, _)]
        ));
    }
}
