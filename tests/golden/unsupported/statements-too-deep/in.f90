! An ELSE IF chain of 205 branches in a region nests 205 levels in the IR: one error at the 201st, no stack overflow.
subroutine classify(t, c, n)
  implicit none
  integer, intent(in) :: n
  real, intent(in) :: t(n)
  integer, intent(out) :: c(n)
  integer :: i
!$stencil region
  do i = 1, n
    if (t(i) < 1.0) then
      c(i) = 0
    else if (t(i) < 2.0) then
      c(i) = 1
    else if (t(i) < 3.0) then
      c(i) = 2
    else if (t(i) < 4.0) then
      c(i) = 3
    else if (t(i) < 5.0) then
      c(i) = 4
    else if (t(i) < 6.0) then
      c(i) = 5
    else if (t(i) < 7.0) then
      c(i) = 6
    else if (t(i) < 8.0) then
      c(i) = 7
    else if (t(i) < 9.0) then
      c(i) = 8
    else if (t(i) < 10.0) then
      c(i) = 9
    else if (t(i) < 11.0) then
      c(i) = 10
    else if (t(i) < 12.0) then
      c(i) = 11
    else if (t(i) < 13.0) then
      c(i) = 12
    else if (t(i) < 14.0) then
      c(i) = 13
    else if (t(i) < 15.0) then
      c(i) = 14
    else if (t(i) < 16.0) then
      c(i) = 15
    else if (t(i) < 17.0) then
      c(i) = 16
    else if (t(i) < 18.0) then
      c(i) = 17
    else if (t(i) < 19.0) then
      c(i) = 18
    else if (t(i) < 20.0) then
      c(i) = 19
    else if (t(i) < 21.0) then
      c(i) = 20
    else if (t(i) < 22.0) then
      c(i) = 21
    else if (t(i) < 23.0) then
      c(i) = 22
    else if (t(i) < 24.0) then
      c(i) = 23
    else if (t(i) < 25.0) then
      c(i) = 24
    else if (t(i) < 26.0) then
      c(i) = 25
    else if (t(i) < 27.0) then
      c(i) = 26
    else if (t(i) < 28.0) then
      c(i) = 27
    else if (t(i) < 29.0) then
      c(i) = 28
    else if (t(i) < 30.0) then
      c(i) = 29
    else if (t(i) < 31.0) then
      c(i) = 30
    else if (t(i) < 32.0) then
      c(i) = 31
    else if (t(i) < 33.0) then
      c(i) = 32
    else if (t(i) < 34.0) then
      c(i) = 33
    else if (t(i) < 35.0) then
      c(i) = 34
    else if (t(i) < 36.0) then
      c(i) = 35
    else if (t(i) < 37.0) then
      c(i) = 36
    else if (t(i) < 38.0) then
      c(i) = 37
    else if (t(i) < 39.0) then
      c(i) = 38
    else if (t(i) < 40.0) then
      c(i) = 39
    else if (t(i) < 41.0) then
      c(i) = 40
    else if (t(i) < 42.0) then
      c(i) = 41
    else if (t(i) < 43.0) then
      c(i) = 42
    else if (t(i) < 44.0) then
      c(i) = 43
    else if (t(i) < 45.0) then
      c(i) = 44
    else if (t(i) < 46.0) then
      c(i) = 45
    else if (t(i) < 47.0) then
      c(i) = 46
    else if (t(i) < 48.0) then
      c(i) = 47
    else if (t(i) < 49.0) then
      c(i) = 48
    else if (t(i) < 50.0) then
      c(i) = 49
    else if (t(i) < 51.0) then
      c(i) = 50
    else if (t(i) < 52.0) then
      c(i) = 51
    else if (t(i) < 53.0) then
      c(i) = 52
    else if (t(i) < 54.0) then
      c(i) = 53
    else if (t(i) < 55.0) then
      c(i) = 54
    else if (t(i) < 56.0) then
      c(i) = 55
    else if (t(i) < 57.0) then
      c(i) = 56
    else if (t(i) < 58.0) then
      c(i) = 57
    else if (t(i) < 59.0) then
      c(i) = 58
    else if (t(i) < 60.0) then
      c(i) = 59
    else if (t(i) < 61.0) then
      c(i) = 60
    else if (t(i) < 62.0) then
      c(i) = 61
    else if (t(i) < 63.0) then
      c(i) = 62
    else if (t(i) < 64.0) then
      c(i) = 63
    else if (t(i) < 65.0) then
      c(i) = 64
    else if (t(i) < 66.0) then
      c(i) = 65
    else if (t(i) < 67.0) then
      c(i) = 66
    else if (t(i) < 68.0) then
      c(i) = 67
    else if (t(i) < 69.0) then
      c(i) = 68
    else if (t(i) < 70.0) then
      c(i) = 69
    else if (t(i) < 71.0) then
      c(i) = 70
    else if (t(i) < 72.0) then
      c(i) = 71
    else if (t(i) < 73.0) then
      c(i) = 72
    else if (t(i) < 74.0) then
      c(i) = 73
    else if (t(i) < 75.0) then
      c(i) = 74
    else if (t(i) < 76.0) then
      c(i) = 75
    else if (t(i) < 77.0) then
      c(i) = 76
    else if (t(i) < 78.0) then
      c(i) = 77
    else if (t(i) < 79.0) then
      c(i) = 78
    else if (t(i) < 80.0) then
      c(i) = 79
    else if (t(i) < 81.0) then
      c(i) = 80
    else if (t(i) < 82.0) then
      c(i) = 81
    else if (t(i) < 83.0) then
      c(i) = 82
    else if (t(i) < 84.0) then
      c(i) = 83
    else if (t(i) < 85.0) then
      c(i) = 84
    else if (t(i) < 86.0) then
      c(i) = 85
    else if (t(i) < 87.0) then
      c(i) = 86
    else if (t(i) < 88.0) then
      c(i) = 87
    else if (t(i) < 89.0) then
      c(i) = 88
    else if (t(i) < 90.0) then
      c(i) = 89
    else if (t(i) < 91.0) then
      c(i) = 90
    else if (t(i) < 92.0) then
      c(i) = 91
    else if (t(i) < 93.0) then
      c(i) = 92
    else if (t(i) < 94.0) then
      c(i) = 93
    else if (t(i) < 95.0) then
      c(i) = 94
    else if (t(i) < 96.0) then
      c(i) = 95
    else if (t(i) < 97.0) then
      c(i) = 96
    else if (t(i) < 98.0) then
      c(i) = 97
    else if (t(i) < 99.0) then
      c(i) = 98
    else if (t(i) < 100.0) then
      c(i) = 99
    else if (t(i) < 101.0) then
      c(i) = 100
    else if (t(i) < 102.0) then
      c(i) = 101
    else if (t(i) < 103.0) then
      c(i) = 102
    else if (t(i) < 104.0) then
      c(i) = 103
    else if (t(i) < 105.0) then
      c(i) = 104
    else if (t(i) < 106.0) then
      c(i) = 105
    else if (t(i) < 107.0) then
      c(i) = 106
    else if (t(i) < 108.0) then
      c(i) = 107
    else if (t(i) < 109.0) then
      c(i) = 108
    else if (t(i) < 110.0) then
      c(i) = 109
    else if (t(i) < 111.0) then
      c(i) = 110
    else if (t(i) < 112.0) then
      c(i) = 111
    else if (t(i) < 113.0) then
      c(i) = 112
    else if (t(i) < 114.0) then
      c(i) = 113
    else if (t(i) < 115.0) then
      c(i) = 114
    else if (t(i) < 116.0) then
      c(i) = 115
    else if (t(i) < 117.0) then
      c(i) = 116
    else if (t(i) < 118.0) then
      c(i) = 117
    else if (t(i) < 119.0) then
      c(i) = 118
    else if (t(i) < 120.0) then
      c(i) = 119
    else if (t(i) < 121.0) then
      c(i) = 120
    else if (t(i) < 122.0) then
      c(i) = 121
    else if (t(i) < 123.0) then
      c(i) = 122
    else if (t(i) < 124.0) then
      c(i) = 123
    else if (t(i) < 125.0) then
      c(i) = 124
    else if (t(i) < 126.0) then
      c(i) = 125
    else if (t(i) < 127.0) then
      c(i) = 126
    else if (t(i) < 128.0) then
      c(i) = 127
    else if (t(i) < 129.0) then
      c(i) = 128
    else if (t(i) < 130.0) then
      c(i) = 129
    else if (t(i) < 131.0) then
      c(i) = 130
    else if (t(i) < 132.0) then
      c(i) = 131
    else if (t(i) < 133.0) then
      c(i) = 132
    else if (t(i) < 134.0) then
      c(i) = 133
    else if (t(i) < 135.0) then
      c(i) = 134
    else if (t(i) < 136.0) then
      c(i) = 135
    else if (t(i) < 137.0) then
      c(i) = 136
    else if (t(i) < 138.0) then
      c(i) = 137
    else if (t(i) < 139.0) then
      c(i) = 138
    else if (t(i) < 140.0) then
      c(i) = 139
    else if (t(i) < 141.0) then
      c(i) = 140
    else if (t(i) < 142.0) then
      c(i) = 141
    else if (t(i) < 143.0) then
      c(i) = 142
    else if (t(i) < 144.0) then
      c(i) = 143
    else if (t(i) < 145.0) then
      c(i) = 144
    else if (t(i) < 146.0) then
      c(i) = 145
    else if (t(i) < 147.0) then
      c(i) = 146
    else if (t(i) < 148.0) then
      c(i) = 147
    else if (t(i) < 149.0) then
      c(i) = 148
    else if (t(i) < 150.0) then
      c(i) = 149
    else if (t(i) < 151.0) then
      c(i) = 150
    else if (t(i) < 152.0) then
      c(i) = 151
    else if (t(i) < 153.0) then
      c(i) = 152
    else if (t(i) < 154.0) then
      c(i) = 153
    else if (t(i) < 155.0) then
      c(i) = 154
    else if (t(i) < 156.0) then
      c(i) = 155
    else if (t(i) < 157.0) then
      c(i) = 156
    else if (t(i) < 158.0) then
      c(i) = 157
    else if (t(i) < 159.0) then
      c(i) = 158
    else if (t(i) < 160.0) then
      c(i) = 159
    else if (t(i) < 161.0) then
      c(i) = 160
    else if (t(i) < 162.0) then
      c(i) = 161
    else if (t(i) < 163.0) then
      c(i) = 162
    else if (t(i) < 164.0) then
      c(i) = 163
    else if (t(i) < 165.0) then
      c(i) = 164
    else if (t(i) < 166.0) then
      c(i) = 165
    else if (t(i) < 167.0) then
      c(i) = 166
    else if (t(i) < 168.0) then
      c(i) = 167
    else if (t(i) < 169.0) then
      c(i) = 168
    else if (t(i) < 170.0) then
      c(i) = 169
    else if (t(i) < 171.0) then
      c(i) = 170
    else if (t(i) < 172.0) then
      c(i) = 171
    else if (t(i) < 173.0) then
      c(i) = 172
    else if (t(i) < 174.0) then
      c(i) = 173
    else if (t(i) < 175.0) then
      c(i) = 174
    else if (t(i) < 176.0) then
      c(i) = 175
    else if (t(i) < 177.0) then
      c(i) = 176
    else if (t(i) < 178.0) then
      c(i) = 177
    else if (t(i) < 179.0) then
      c(i) = 178
    else if (t(i) < 180.0) then
      c(i) = 179
    else if (t(i) < 181.0) then
      c(i) = 180
    else if (t(i) < 182.0) then
      c(i) = 181
    else if (t(i) < 183.0) then
      c(i) = 182
    else if (t(i) < 184.0) then
      c(i) = 183
    else if (t(i) < 185.0) then
      c(i) = 184
    else if (t(i) < 186.0) then
      c(i) = 185
    else if (t(i) < 187.0) then
      c(i) = 186
    else if (t(i) < 188.0) then
      c(i) = 187
    else if (t(i) < 189.0) then
      c(i) = 188
    else if (t(i) < 190.0) then
      c(i) = 189
    else if (t(i) < 191.0) then
      c(i) = 190
    else if (t(i) < 192.0) then
      c(i) = 191
    else if (t(i) < 193.0) then
      c(i) = 192
    else if (t(i) < 194.0) then
      c(i) = 193
    else if (t(i) < 195.0) then
      c(i) = 194
    else if (t(i) < 196.0) then
      c(i) = 195
    else if (t(i) < 197.0) then
      c(i) = 196
    else if (t(i) < 198.0) then
      c(i) = 197
    else if (t(i) < 199.0) then
      c(i) = 198
    else if (t(i) < 200.0) then
      c(i) = 199
    else if (t(i) < 201.0) then
      c(i) = 200
    else if (t(i) < 202.0) then
      c(i) = 201
    else if (t(i) < 203.0) then
      c(i) = 202
    else if (t(i) < 204.0) then
      c(i) = 203
    else if (t(i) < 205.0) then
      c(i) = 204
    else
      c(i) = -1
    end if
  end do
!$stencil end region
end subroutine classify
