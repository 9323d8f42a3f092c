//! What the load examples share: the server under test as a separate process (`backend serve` on a
//! free port with a fresh SQLite database), the file-descriptor limit, and readings of
//! `/proc/<pid>/status`, `/proc/<pid>/stat` and `/proc/stat`.
//!
//! Not a library: `market_load.rs` and `rest_load.rs` include it with `mod support;`.

#![allow(dead_code)] // each example uses its own part

use std::{
    fs::File,
    net::TcpListener,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

/// The workspace's release binary of the backend (`cargo build --release -p backend`).
pub fn default_server_bin() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("release/backend")
}

/// Raises this process's `RLIMIT_NOFILE` soft limit to `want` (and the hard limit with it when
/// allowed); returns the soft limit now in force. Children inherit it.
pub fn raise_nofile(want: u64) -> u64 {
    // SAFETY: getrlimit/setrlimit only read and write the struct passed.
    unsafe {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 0;
        }
        if limit.rlim_cur >= want {
            return limit.rlim_cur;
        }
        // Raising the hard limit needs CAP_SYS_RESOURCE; try, then settle for the hard limit.
        let raised = libc::rlimit {
            rlim_cur: want,
            rlim_max: limit.rlim_max.max(want),
        };
        if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
            return want;
        }
        let capped = libc::rlimit {
            rlim_cur: limit.rlim_max.min(want),
            rlim_max: limit.rlim_max,
        };
        if libc::setrlimit(libc::RLIMIT_NOFILE, &capped) == 0 {
            return capped.rlim_cur;
        }
        limit.rlim_cur
    }
}

/// A free TCP port on loopback (bound and released: another process could take it in between,
/// which the server's start would then report).
pub fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// `backend serve` started by the tool: its own data folder, port and log file.
pub struct ServerProcess {
    child: Option<Child>,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The process id (for `/proc`).
    pub pid: u32,
    /// The server's standard output and error.
    pub log: PathBuf,
    data_dir: tempfile::TempDir,
}

impl ServerProcess {
    /// Starts `bin serve` on a free port over the fresh database in `data_dir`, the simulator
    /// ticking every `tick_ms`. The fd limit in force is inherited (see [`raise_nofile`]).
    pub fn spawn(bin: &Path, data_dir: tempfile::TempDir, tick_ms: u64) -> Result<Self, String> {
        if !bin.is_file() {
            return Err(format!(
                "{} not found: build it first (cargo build --release -p backend) or pass --server-bin",
                bin.display()
            ));
        }
        let port = free_port().map_err(|e| format!("no free port: {e}"))?;
        let log = data_dir.path().join("server.log");
        let out = File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let child = Command::new(bin)
            .arg("serve")
            .env("EXCHANGE_HOST", "127.0.0.1")
            .env("EXCHANGE_PORT", port.to_string())
            .env("EXCHANGE_DATA_DIR", data_dir.path())
            .env("EXCHANGE_WEBAPP_DIR", data_dir.path().join("webapp"))
            .env("EXCHANGE_SIM_TICK_MS", tick_ms.to_string())
            .env("EXCHANGE_LOG", "warn")
            .env_remove("DATABASE_URL")
            .env_remove("EXCHANGE_CONFIG")
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        Ok(Self {
            pid: child.id(),
            child: Some(child),
            base: format!("http://127.0.0.1:{port}"),
            log,
            data_dir,
        })
    }

    /// Waits until the server answers a price (the simulator publishes before it listens).
    pub async fn wait_ready(&mut self, timeout: Duration) -> Result<(), String> {
        let client = reqwest::Client::new();
        let url = format!(
            "{}/api/contract/coin/currencyPrice?symbol=btcusdt",
            self.base
        );
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                return Err(format!(
                    "the server exited ({status}); its log: {}",
                    self.log.display()
                ));
            }
            if let Ok(response) = client.get(&url).send().await
                && response.status().is_success()
            {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "the server did not answer within {timeout:?}; its log: {}",
                    self.log.display()
                ));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The data folder (its SQLite file is `exchange.db`).
    pub fn data_dir(&self) -> &Path {
        self.data_dir.path()
    }

    /// Stops the server: SIGTERM (it saves the live candles), SIGKILL after 10 s.
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        // SAFETY: signalling our own child by its id.
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A line of `/proc/<pid>/status` in KiB (`VmRSS`, `VmHWM`); `None` for this process.
pub fn status_kib(pid: Option<u32>, key: &str) -> Option<u64> {
    let path = match pid {
        Some(pid) => format!("/proc/{pid}/status"),
        None => "/proc/self/status".to_owned(),
    };
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .find_map(|line| line.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Resident memory in KiB.
pub fn rss_kib(pid: Option<u32>) -> Option<u64> {
    status_kib(pid, "VmRSS")
}

/// CPU time (user + system) of a process in clock ticks; `None` for this process.
pub fn cpu_ticks(pid: Option<u32>) -> Option<u64> {
    let path = match pid {
        Some(pid) => format!("/proc/{pid}/stat"),
        None => "/proc/self/stat".to_owned(),
    };
    let text = std::fs::read_to_string(path).ok()?;
    // The command name may hold spaces: fields are counted after its closing parenthesis.
    let rest = &text[text.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of stat(5) (utime, stime) are the 12th and 13th after the name.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// Clock ticks per second (`sysconf(_SC_CLK_TCK)`).
pub fn clock_ticks_per_second() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 { ticks as f64 } else { 100.0 }
}

/// The machine's busy and total CPU time so far (first line of `/proc/stat`), in clock ticks.
pub fn machine_ticks() -> Option<(u64, u64)> {
    let text = std::fs::read_to_string("/proc/stat").ok()?;
    let line = text.lines().next()?.strip_prefix("cpu ")?;
    let values: Vec<u64> = line
        .split_whitespace()
        .filter_map(|v| v.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal (guest time is already in user).
    let total: u64 = values.iter().take(8).sum();
    let idle = values.get(3)? + values.get(4).copied().unwrap_or(0);
    Some((total - idle, total))
}

/// One-, five- and fifteen-minute load averages.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// CPU readings of one process and of the machine, to be compared with a later reading.
#[derive(Clone, Copy)]
pub struct CpuMark {
    at: Instant,
    process: Option<u64>,
    machine: Option<(u64, u64)>,
}

impl CpuMark {
    /// Reads the CPU time of `pid` (this process when `None`) and of the machine now.
    pub fn now(pid: Option<u32>) -> Self {
        Self {
            at: Instant::now(),
            process: cpu_ticks(pid),
            machine: machine_ticks(),
        }
    }

    /// The process's CPU use since `self` as % of one core (`later` read after `self`).
    pub fn process_percent(&self, later: &CpuMark) -> Option<f64> {
        let ticks = later.process?.checked_sub(self.process?)? as f64;
        let secs = later.at.duration_since(self.at).as_secs_f64();
        Some(100.0 * ticks / clock_ticks_per_second() / secs)
    }

    /// How busy the whole machine was since `self`, in % of all its cores.
    pub fn machine_percent(&self, later: &CpuMark) -> Option<f64> {
        let (busy0, total0) = self.machine?;
        let (busy1, total1) = later.machine?;
        let total = total1.checked_sub(total0)?;
        (total > 0).then(|| 100.0 * (busy1 - busy0) as f64 / total as f64)
    }
}

/// The value at quantile `q` (0–1) of sorted `values` (nearest rank).
pub fn quantile<T: Copy>(sorted: &[T], q: f64) -> Option<T> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

/// Milliseconds since the Unix epoch, as the server stamps its messages.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Number of online CPUs.
pub fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Memory of the machine's TCP socket buffers in KiB (`/proc/net/sockstat`, kernel memory that no
/// process's RSS includes; on loopback it covers both ends of every connection).
pub fn tcp_buffers_kib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/net/sockstat").ok()?;
    let line = text.lines().find(|l| l.starts_with("TCP:"))?;
    let mut words = line.split_whitespace();
    let pages: u64 = loop {
        if words.next()? == "mem" {
            break words.next()?.parse().ok()?;
        }
    };
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    Some(pages * page / 1024)
}

/// Time the threads of a process (this one when `None`) have spent waiting for a CPU while
/// runnable, in ms (`/proc/<pid>/task/*/schedstat`, second field): how much the rest of the
/// machine held it back.
pub fn run_queue_wait_ms(pid: Option<u32>) -> Option<f64> {
    let total_ns = sum_over_threads(pid, "schedstat", |text| {
        text.split_whitespace().nth(1)?.parse().ok()
    })?;
    Some(total_ns as f64 / 1e6)
}

/// How many times the threads of a process (this one when `None`) were taken off a CPU while
/// they could have gone on running (`nonvoluntary_ctxt_switches` of `/proc/<pid>/task/*/status`):
/// preempted by another thread, such as a load tool's reader woken on the same cores.
pub fn preemptions(pid: Option<u32>) -> Option<u64> {
    sum_over_threads(pid, "status", |text| {
        text.lines()
            .find_map(|line| line.strip_prefix("nonvoluntary_ctxt_switches:"))?
            .trim()
            .parse()
            .ok()
    })
}

/// The sum over the threads of a process (this one when `None`) of what `read` finds in each
/// thread's `file` under `/proc/<pid>/task/<tid>/` (a thread that has ended counts 0).
fn sum_over_threads(
    pid: Option<u32>,
    file: &str,
    read: impl Fn(&str) -> Option<u64>,
) -> Option<u64> {
    let dir = match pid {
        Some(pid) => format!("/proc/{pid}/task"),
        None => "/proc/self/task".to_owned(),
    };
    let mut total = 0;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        if let Ok(text) = std::fs::read_to_string(entry.path().join(file)) {
            total += read(&text).unwrap_or(0);
        }
    }
    Some(total)
}
