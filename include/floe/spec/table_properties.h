// Table property keys and their defaults, one home for every key floe reads or writes (the
// Iceberg spec's "Table Properties" section; the same names and defaults as Java's
// org.apache.iceberg.TableProperties). Code names a property through these constants, never a
// string literal, so a key is spelled once and its default is stated once.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace floe::table_properties {

// ---- Reserved: set by the table format itself, not stored as properties ------------------
inline constexpr std::string_view kFormatVersion = "format-version";

// ---- Read ---------------------------------------------------------------------------------
inline constexpr std::string_view kSplitSize = "read.split.target-size";
inline constexpr int64_t kSplitSizeDefault = 128LL * 1024 * 1024;
inline constexpr std::string_view kSplitLookback = "read.split.planning-lookback";
inline constexpr int64_t kSplitLookbackDefault = 10;
inline constexpr std::string_view kSplitOpenFileCost = "read.split.open-file-cost";
inline constexpr int64_t kSplitOpenFileCostDefault = 4LL * 1024 * 1024;

// ---- Write: file format -------------------------------------------------------------------
inline constexpr std::string_view kDefaultFileFormat = "write.format.default";
inline constexpr std::string_view kDefaultFileFormatDefault = "parquet";
inline constexpr std::string_view kDeleteDefaultFileFormat = "write.delete.format.default";
inline constexpr std::string_view kTargetFileSizeBytes = "write.target-file-size-bytes";
inline constexpr int64_t kTargetFileSizeBytesDefault = 512LL * 1024 * 1024;
inline constexpr std::string_view kDeleteTargetFileSizeBytes =
    "write.delete.target-file-size-bytes";
inline constexpr int64_t kDeleteTargetFileSizeBytesDefault = 64LL * 1024 * 1024;

// ---- Write: Parquet -----------------------------------------------------------------------
inline constexpr std::string_view kParquetRowGroupSizeBytes = "write.parquet.row-group-size-bytes";
inline constexpr int64_t kParquetRowGroupSizeBytesDefault = 128LL * 1024 * 1024;
inline constexpr std::string_view kParquetPageSizeBytes = "write.parquet.page-size-bytes";
inline constexpr int64_t kParquetPageSizeBytesDefault = 1024 * 1024;
inline constexpr std::string_view kParquetPageRowLimit = "write.parquet.page-row-limit";
inline constexpr int64_t kParquetPageRowLimitDefault = 20000;
inline constexpr std::string_view kParquetDictSizeBytes = "write.parquet.dict-size-bytes";
inline constexpr int64_t kParquetDictSizeBytesDefault = 2 * 1024 * 1024;
inline constexpr std::string_view kParquetCompression = "write.parquet.compression-codec";
// Java's default since Iceberg 1.4; new tables also get it written explicitly (CREATE TABLE).
inline constexpr std::string_view kParquetCompressionDefault = "zstd";
inline constexpr std::string_view kParquetCompressionLevel = "write.parquet.compression-level";

// ---- Write: delete files (each falls back to the data-file property of the same name) ------
// write.delete.format.default falls back to write.format.default.
inline constexpr std::string_view kDeleteParquetRowGroupSizeBytes =
    "write.delete.parquet.row-group-size-bytes";
inline constexpr std::string_view kDeleteParquetPageSizeBytes =
    "write.delete.parquet.page-size-bytes";
inline constexpr std::string_view kDeleteParquetPageRowLimit =
    "write.delete.parquet.page-row-limit";
inline constexpr std::string_view kDeleteParquetDictSizeBytes =
    "write.delete.parquet.dict-size-bytes";
inline constexpr std::string_view kDeleteParquetCompression =
    "write.delete.parquet.compression-codec";
inline constexpr std::string_view kDeleteParquetCompressionLevel =
    "write.delete.parquet.compression-level";
inline constexpr std::string_view kDeleteAvroCompression = "write.delete.avro.compression-codec";
inline constexpr std::string_view kDeleteAvroCompressionLevel =
    "write.delete.avro.compression-level";

// ---- Write: Avro --------------------------------------------------------------------------
inline constexpr std::string_view kAvroCompression = "write.avro.compression-codec";
inline constexpr std::string_view kAvroCompressionDefault = "gzip";
inline constexpr std::string_view kAvroCompressionLevel = "write.avro.compression-level";

// ---- Write: column metrics (see spec/metrics_config.h) ------------------------------------
inline constexpr std::string_view kMetricsMaxInferredColumnDefaults =
    "write.metadata.metrics.max-inferred-column-defaults";
inline constexpr int64_t kMetricsMaxInferredColumnDefaultsDefault = 100;
inline constexpr std::string_view kDefaultWriteMetricsMode = "write.metadata.metrics.default";
inline constexpr std::string_view kDefaultWriteMetricsModeDefault = "truncate(16)";
// Followed by a column name: write.metadata.metrics.column.<name>.
inline constexpr std::string_view kMetricsModeColumnConfPrefix = "write.metadata.metrics.column.";

// ---- Write: locations ---------------------------------------------------------------------
inline constexpr std::string_view kObjectStoreEnabled = "write.object-storage.enabled";
inline constexpr bool kObjectStoreEnabledDefault = false;
inline constexpr std::string_view kWriteObjectStorePartitionedPaths =
    "write.object-storage.partitioned-paths";
inline constexpr bool kWriteObjectStorePartitionedPathsDefault = true;
inline constexpr std::string_view kObjectStorePath = "write.object-storage.path";  // deprecated
inline constexpr std::string_view kWriteFolderStoragePath =
    "write.folder-storage.path";  // deprecated
inline constexpr std::string_view kWriteDataLocation = "write.data.path";
inline constexpr std::string_view kWriteMetadataLocation = "write.metadata.path";

// ---- Write: distribution and fanout -------------------------------------------------------
inline constexpr std::string_view kSparkWritePartitionedFanoutEnabled =
    "write.spark.fanout.enabled";
inline constexpr bool kSparkWritePartitionedFanoutEnabledDefault = false;
inline constexpr std::string_view kWriteDistributionMode = "write.distribution-mode";

// ---- Write: row-level operations ----------------------------------------------------------
inline constexpr std::string_view kDeleteMode = "write.delete.mode";
inline constexpr std::string_view kUpdateMode = "write.update.mode";
inline constexpr std::string_view kMergeMode = "write.merge.mode";
inline constexpr std::string_view kRowLevelModeDefault = "copy-on-write";
inline constexpr std::string_view kDeleteGranularity = "write.delete.granularity";
// Java's TableProperties constant said "partition", but Spark writes with "file" when the
// property is unset since Iceberg 1.8 (one delete file per data file); floe follows Spark.
inline constexpr std::string_view kDeleteGranularityDefault = "file";

// ---- Write: snapshot summaries and metadata files -----------------------------------------
inline constexpr std::string_view kWriteSummaryPartitionLimit = "write.summary.partition-limit";
inline constexpr int64_t kWriteSummaryPartitionLimitDefault = 0;
inline constexpr std::string_view kMetadataPreviousVersionsMax =
    "write.metadata.previous-versions-max";
inline constexpr int64_t kMetadataPreviousVersionsMaxDefault = 100;
inline constexpr std::string_view kMetadataDeleteAfterCommitEnabled =
    "write.metadata.delete-after-commit.enabled";
inline constexpr bool kMetadataDeleteAfterCommitEnabledDefault = false;
inline constexpr std::string_view kMetadataCompression = "write.metadata.compression-codec";
inline constexpr std::string_view kMetadataCompressionDefault = "none";

// ---- Commit -------------------------------------------------------------------------------
inline constexpr std::string_view kCommitNumRetries = "commit.retry.num-retries";
inline constexpr int64_t kCommitNumRetriesDefault = 4;
inline constexpr std::string_view kCommitMinRetryWaitMs = "commit.retry.min-wait-ms";
inline constexpr int64_t kCommitMinRetryWaitMsDefault = 100;
inline constexpr std::string_view kCommitMaxRetryWaitMs = "commit.retry.max-wait-ms";
inline constexpr int64_t kCommitMaxRetryWaitMsDefault = 60 * 1000;
inline constexpr std::string_view kCommitTotalRetryTimeMs = "commit.retry.total-timeout-ms";
inline constexpr int64_t kCommitTotalRetryTimeMsDefault = 30 * 60 * 1000;
inline constexpr std::string_view kManifestTargetSizeBytes = "commit.manifest.target-size-bytes";
inline constexpr int64_t kManifestTargetSizeBytesDefault = 8 * 1024 * 1024;
inline constexpr std::string_view kManifestMinMergeCount = "commit.manifest.min-count-to-merge";
inline constexpr int64_t kManifestMinMergeCountDefault = 100;
inline constexpr std::string_view kManifestMergeEnabled = "commit.manifest-merge.enabled";
inline constexpr bool kManifestMergeEnabledDefault = true;

// ---- Snapshot expiry and garbage collection -----------------------------------------------
inline constexpr std::string_view kGcEnabled = "gc.enabled";
inline constexpr bool kGcEnabledDefault = true;
inline constexpr std::string_view kMaxSnapshotAgeMs = "history.expire.max-snapshot-age-ms";
inline constexpr int64_t kMaxSnapshotAgeMsDefault = 5LL * 24 * 60 * 60 * 1000;
inline constexpr std::string_view kMinSnapshotsToKeep = "history.expire.min-snapshots-to-keep";
inline constexpr int64_t kMinSnapshotsToKeepDefault = 1;
inline constexpr std::string_view kMaxRefAgeMs = "history.expire.max-ref-age-ms";

using Properties = std::map<std::string, std::string>;

// The lenient readers Java's PropertyUtil uses for planning and commit settings: a missing key
// or a value that is not a number gives the fallback.
int64_t int_property(const Properties& props, std::string_view key, int64_t fallback);
// "true" in any case is true; anything else present is false; missing gives the fallback.
bool bool_property(const Properties& props, std::string_view key, bool fallback);
// The value of key, or fallback when it is not set.
std::string string_property(const Properties& props, std::string_view key,
                            std::string_view fallback = {});

}  // namespace floe::table_properties
