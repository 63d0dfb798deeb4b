package io.heliograph.virtue.internal;

/** Where an experiment is in its life: created from an EDF, running (routes installed, measured), stopped. */
public enum ExperimentState {
    CREATED, RUNNING, STOPPED
}
