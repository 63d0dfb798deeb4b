package io.heliograph.virtue.engine;

import java.util.Arrays;

/**
 * The largest of a fixed set of values, kept as values change: a segment tree, so a change costs
 * log(n) and reading the maximum costs nothing, where rescanning every link would cost n per move.
 */
final class MaxTree {

    private final int leaves;
    private final double[] tree;

    MaxTree(int size) {
        int n = 1;
        while (n < Math.max(size, 1)) {
            n <<= 1;
        }
        leaves = n;
        tree = new double[2 * n];
        Arrays.fill(tree, Double.NEGATIVE_INFINITY);
    }

    void set(int index, double value) {
        int i = index + leaves;
        tree[i] = value;
        for (i >>= 1; i >= 1; i >>= 1) {
            double max = Math.max(tree[2 * i], tree[2 * i + 1]);
            if (tree[i] == max) {
                break; // the ancestors hold the same maximum already
            }
            tree[i] = max;
        }
    }

    double get(int index) {
        return tree[index + leaves];
    }

    /** The largest value; negative infinity when none is set. */
    double max() {
        return tree[1];
    }

    /** The lowest index holding the largest value. */
    int argmax() {
        int i = 1;
        while (i < leaves) {
            i = tree[2 * i] == tree[i] ? 2 * i : 2 * i + 1;
        }
        return i - leaves;
    }
}
