// Civil date <-> day number conversion (Howard Hinnant's algorithms).
#include "floe/util/calendar.h"

namespace floe {

int32_t days_from_civil(int64_t year, unsigned month, unsigned day) {
  // Howard Hinnant's days_from_civil: eras of 400 years starting in March.
  int64_t y = month <= 2 ? year - 1 : year;
  int64_t era = floor_div(y, 400);
  int64_t yoe = y - era * 400;
  int64_t mp = month > 2 ? month - 3 : month + 9;
  int64_t doy = (153 * mp + 2) / 5 + day - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<int32_t>(era * 146097 + doe - 719468);
}

void civil_from_days(int64_t days, int64_t* year, unsigned* month, unsigned* day) {
  int64_t z = days + 719468;
  int64_t era = floor_div(z, 146097);
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  *day = static_cast<unsigned>(doy - (153 * mp + 2) / 5 + 1);
  *month = static_cast<unsigned>(mp < 10 ? mp + 3 : mp - 9);
  *year = yoe + era * 400 + (*month <= 2 ? 1 : 0);
}

}  // namespace floe
