-- Virtue's measurement database, version 1: experiments, sampling rounds, host reports.
-- Portable SQL for H2 2.x and PostgreSQL. Times are epoch milliseconds (BIGINT, UTC, no time zone
-- conversions between drivers); rates are bits per second (DOUBLE PRECISION). Every measurement table's
-- primary key starts with (experiment, time), so a retried write replaces rather than duplicates, and
-- range queries over one experiment's run use it; deleting an experiment deletes its rows (cascade).

CREATE TABLE virtue_experiment (
    id VARCHAR(40) NOT NULL PRIMARY KEY,
    name VARCHAR(200) NOT NULL,
    state VARCHAR(16) NOT NULL,
    edf TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    started_ms BIGINT,
    stopped_ms BIGINT
);

-- One row a sampling round: its instant, even when the round measured nothing.
CREATE TABLE virtue_round (
    experiment VARCHAR(40) NOT NULL REFERENCES virtue_experiment (id) ON DELETE CASCADE,
    sampled_ms BIGINT NOT NULL,
    PRIMARY KEY (experiment, sampled_ms)
);

-- A round's rate on each EDF link.
CREATE TABLE virtue_link_rate (
    experiment VARCHAR(40) NOT NULL,
    sampled_ms BIGINT NOT NULL,
    link VARCHAR(200) NOT NULL,
    bits_per_second DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (experiment, sampled_ms, link),
    FOREIGN KEY (experiment, sampled_ms) REFERENCES virtue_round (experiment, sampled_ms) ON DELETE CASCADE
);

-- A round's traffic matrix: the rate from one VM to another.
CREATE TABLE virtue_traffic (
    experiment VARCHAR(40) NOT NULL,
    sampled_ms BIGINT NOT NULL,
    source_vm VARCHAR(100) NOT NULL,
    destination_vm VARCHAR(100) NOT NULL,
    bits_per_second DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (experiment, sampled_ms, source_vm, destination_vm),
    FOREIGN KEY (experiment, sampled_ms) REFERENCES virtue_round (experiment, sampled_ms) ON DELETE CASCADE
);

-- A round's NIC rates of each VM.
CREATE TABLE virtue_nic_rate (
    experiment VARCHAR(40) NOT NULL,
    sampled_ms BIGINT NOT NULL,
    vm VARCHAR(100) NOT NULL,
    sent_bits_per_second DOUBLE PRECISION NOT NULL,
    received_bits_per_second DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (experiment, sampled_ms, vm),
    FOREIGN KEY (experiment, sampled_ms) REFERENCES virtue_round (experiment, sampled_ms) ON DELETE CASCADE
);

-- A round's switch port rates, where the sampler gives them (OpenFlow port numbers are unsigned 32-bit).
CREATE TABLE virtue_port_rate (
    experiment VARCHAR(40) NOT NULL,
    sampled_ms BIGINT NOT NULL,
    dpid VARCHAR(32) NOT NULL,
    port_number BIGINT NOT NULL,
    received_bits_per_second DOUBLE PRECISION NOT NULL,
    transmitted_bits_per_second DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (experiment, sampled_ms, dpid, port_number),
    FOREIGN KEY (experiment, sampled_ms) REFERENCES virtue_round (experiment, sampled_ms) ON DELETE CASCADE
);

-- What host agents report: one row a VM, report time and metric; the CPU share is the metric 'cpu'.
CREATE TABLE virtue_vm_metric (
    experiment VARCHAR(40) NOT NULL REFERENCES virtue_experiment (id) ON DELETE CASCADE,
    reported_ms BIGINT NOT NULL,
    vm VARCHAR(100) NOT NULL,
    metric VARCHAR(100) NOT NULL,
    metric_value DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (experiment, reported_ms, vm, metric)
);

-- The metric charts read one VM's series in time order.
CREATE INDEX virtue_vm_metric_series ON virtue_vm_metric (experiment, vm, metric, reported_ms);
